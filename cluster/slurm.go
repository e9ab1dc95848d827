package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Slurm runs Slurm's commands (sbatch, squeue, sacct, scontrol) from the
// PATH, with the environment of the process ($SLURM_CONF included).
type Slurm struct {
	// Run runs a command and returns its standard output; nil runs the
	// real one.
	Run func(ctx context.Context, name string, args ...string) ([]byte, error)
}

func (s *Slurm) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	if s.Run != nil {
		return s.Run(ctx, name, args...)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return nil, fmt.Errorf("%s: %w: %s", name, err, msg)
	}
	return stdout.Bytes(), nil
}

// Submit submits a batch script file and returns the job's id.
func (s *Slurm) Submit(ctx context.Context, script string) (string, error) {
	out, err := s.run(ctx, "sbatch", "--parsable", script)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster"
	if id == "" {
		return "", errors.New("sbatch printed no job id")
	}
	return id, nil
}

// Job states as Slurm names them (the ones this package tells apart).
const (
	StatePending   = "PENDING"
	StateRunning   = "RUNNING"
	StateCompleted = "COMPLETED"
	StateUnknown   = "UNKNOWN" // Slurm no longer knows the job
)

// Active reports whether a job in state may still run or is running.
func Active(state string) bool {
	switch state {
	case StatePending, StateRunning, "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED", "REQUEUE_HOLD", "REQUEUE_FED":
		return true
	}
	return false
}

// States returns the state of each job id: from squeue while a job is in
// the queue, then from sacct (the accounting database), else from
// scontrol (which remembers a finished job for a few minutes), else
// StateUnknown.
func (s *Slurm) States(ctx context.Context, ids []string) (map[string]string, error) {
	states := map[string]string{}
	if len(ids) == 0 {
		return states, nil
	}
	out, err := s.run(ctx, "squeue", "--noheader", "--format=%i %T")
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == 2 && want[f[0]] {
			states[f[0]] = f[1]
		}
	}
	var rest []string
	for _, id := range ids {
		if _, ok := states[id]; !ok {
			rest = append(rest, id)
		}
	}
	if len(rest) == 0 {
		return states, nil
	}
	if out, err := s.run(ctx, "sacct", "--noheader", "--parsable2", "--allocations", "--format=JobID,State", "--jobs="+strings.Join(rest, ",")); err == nil {
		for _, line := range strings.Split(string(out), "\n") {
			id, state, ok := strings.Cut(strings.TrimSpace(line), "|")
			if ok && want[id] {
				states[id], _, _ = strings.Cut(state, " ") // "CANCELLED by 0"
			}
		}
	}
	for _, id := range rest {
		if _, ok := states[id]; ok {
			continue
		}
		states[id] = StateUnknown
		out, err := s.run(ctx, "scontrol", "--oneliner", "show", "job", id)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(out)) {
			if v, ok := strings.CutPrefix(f, "JobState="); ok {
				states[id] = v
			}
		}
	}
	return states, nil
}
