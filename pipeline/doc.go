// Package pipeline turns a list of materials into a checked table
// directory, and checks one: the work of gen, convert, verify and the
// cluster's jobs, with the command line only printing what it hears.
//
// The stages, each in its own file:
//
//   - plan.go: which tables to make, in which order (Plan: every DTM
//     table before the DTB tables, sub-tables first), and what each
//     costs (Job.Estimate, in memory or out of core).
//   - run.go: Runner makes the planned tables. A job goes down the layers
//     once: the directory's listing (store.Dir) says whether its table is
//     present; if not, retro solves it with its sub-tables from a
//     store.Cache, probe writes it under its pending name, and
//     store.Dir.Accept gives it its name once it matches its reference (or,
//     without one, once every value passed the one-ply check), recording
//     its checksum; its catalogue row follows (summary.go).
//   - wdl.go: the WDL files of each material, from its DTM and DTB tables,
//     as soon as its last table is made (and Verifier's check of them).
//   - convert.go: version-1 tables rewritten in version 2, and their WDL
//     files.
//   - verify.go, targets.go: Verifier checks a directory's files against
//     their checksums and every value against its successors.
//
// Reporter hears all of it as it happens; a table that fails is reported
// and the run goes on with what does not need it.
package pipeline
