package main

import (
	"flag"
	"io"
	"strings"

	"tessera/internal/bench"
	"tessera/internal/catalog"
)

// algoFlags are a family's solver flags, shared by its solve and bench:
// -algo, one of the catalogue table's ids, and a flag per option of the
// family's options type (catalog.BindFlags).
type algoFlags[S, R any] struct {
	fs    *flag.FlagSet
	table catalog.Table[S, R]
	algo  string
	list  []catalog.Option
	opts  interface{ Check() error }
}

// define binds -algo (default def; its help lists the ids, then more) and
// the options of opts, a pointer to the options struct.
func (a *algoFlags[S, R]) define(fs *flag.FlagSet, table catalog.Table[S, R], def, more string, opts interface{ Check() error }) {
	a.fs, a.table, a.opts = fs, table, opts
	fs.StringVar(&a.algo, "algo", def, "solver: "+strings.Join(table.IDs(), ", ")+more)
	a.list = catalog.BindFlags(fs, opts)
}

// checkOptions refuses options out of range and an option that none of
// the solvers ids (default: -algo's) reads (the entries' Reads): usage
// errors. The solvers are known.
func (a *algoFlags[S, R]) checkOptions(ids ...string) error {
	if err := a.opts.Check(); err != nil {
		return usagef("%v", err)
	}
	if len(ids) == 0 {
		ids = []string{a.algo}
	}
	if err := a.table.Applies(a.list, catalog.SetFlags(a.fs, a.list), ids...); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// commaList returns the non-empty names of a comma-separated list, then
// args.
func commaList(list string, args []string) []string {
	var out []string
	for s := range strings.SplitSeq(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return append(out, args...)
}

// writeOut writes data to path atomically, or to stdout when path is "".
func writeOut(env *Env, path string, data []byte) error {
	if path == "" {
		_, err := env.Stdout.Write(data)
		return err
	}
	return bench.WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err })
}
