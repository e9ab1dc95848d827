package main

import (
	"fmt"
	"log"
	"net"

	"github.com/spf13/cobra"

	"github.com/makruktb/makruktb/api"
)

func newServeCommand() *cobra.Command {
	var dir, addr string
	var cacheMiB int
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [--tables DIR]",
		Short: "Serve the tablebase explorer and trainer, and a JSON API",
		Long: `Serve the explorer (a board, every move grouped by its result under the
honour count, a trainer against the longest defence, statistics per
material) at / and a JSON API:

` + api.EndpointsHelp() + `
Ctrl-C (or SIGTERM) shuts it down gracefully.`,
		Example: "  makruktb serve\n  makruktb serve --addr :8080 --tables /srv/makruk",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cacheMiB < 0 {
				return fmt.Errorf("--cache-mb %d: must not be negative", cacheMiB)
			}
			tables, err := openTables(dir)
			if err != nil {
				return err
			}
			s := api.NewServer(tables, int64(cacheMiB)<<20, log.New(cmd.ErrOrStderr(), "serve: ", log.LstdFlags))
			defer tables.Close()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "makruktb: serving http://%s/ (tables in %s); Ctrl-C stops\n", ln.Addr(), tables.Dir())
			return s.Serve(cmd.Context(), ln)
		},
	}
	addTablesFlag(cmd, &dir)
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	cmd.Flags().IntVar(&cacheMiB, "cache-mb", 32, "memory for cached API responses, in MiB")
	return cmd
}
