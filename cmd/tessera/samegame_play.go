package main

import (
	"context"
	"flag"
)

var samegamePlayCmd = &Command{
	Name:      "play",
	UsageLine: "[-rules standard|dust] [-size COLSxROWS] [-colors K] [-seed S] [FILE[:N]]",
	Short:     "play in the terminal, with hints",
	Flags: func(fs *flag.FlagSet) Runner {
		return func(ctx context.Context, env *Env, args []string) error { return nil }
	},
}
