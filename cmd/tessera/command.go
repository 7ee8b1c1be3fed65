package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"tessera/internal/bench"
	"tessera/internal/catalog"
	"text/tabwriter"
)

// Env is what a command reads and writes; tests pass buffers.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Runner runs a command with its positional arguments, after its flags
// have been parsed.
type Runner func(ctx context.Context, env *Env, args []string) error

// Command is one verb of a family (tessera npuzzle solve) or a family
// holding verbs (tessera npuzzle), in the style of cmd/go.
type Command struct {
	Name      string
	UsageLine string // arguments after the command path, such as "[flags] BOARD"
	Short     string // one line for listings
	Long      string // shown by tessera help CMD
	// Flags defines the command's flags on fs and returns the runner that
	// reads them. A fresh FlagSet is used for every run, so no state is
	// shared between runs.
	Flags func(fs *flag.FlagSet) Runner
	// NoArgs refuses positional arguments (a usage error).
	NoArgs bool
	// Args, when set, is the count of positional arguments the verb takes
	// and the usage error for another count: want(1, "want one file").
	Args *argCount
	// Commands are the verbs of a family.
	Commands []*Command
}

// argCount is a Command's Args: n arguments, msg the usage error.
type argCount struct {
	n   int
	msg string
}

func want(n int, msg string) *argCount { return &argCount{n, msg} }

// families is the command table, filled by the family files' init
// functions and listed in this order by help.
var families []*Command

// register adds a family (or a top-level verb such as serve) to the table.
func register(c *Command) {
	families = append(families, c)
	slices.SortFunc(families, func(a, b *Command) int { return strings.Compare(a.Name, b.Name) })
}

// usagef reports a mistake in the command line: exit status 2.
func usagef(format string, args ...any) error { return bench.Usagef(format, args...) }

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// run executes a command line and returns the exit status.
func run(ctx context.Context, args []string, env *Env) int {
	if len(args) == 0 {
		printTopUsage(env.Stderr)
		return exitUsage
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		return help(env, args[1:])
	}
	path := []string{"tessera"}
	cmd := find(families, args[0])
	if cmd == nil {
		fmt.Fprintf(env.Stderr, "tessera: unknown command %q\nRun 'tessera help' for the list.\n", args[0])
		return exitUsage
	}
	path = append(path, cmd.Name)
	args = args[1:]
	for cmd.Flags == nil {
		if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "-help" {
			printCommandHelp(env.Stderr, path, cmd)
			if len(args) == 0 {
				return exitUsage
			}
			return exitOK
		}
		sub := find(cmd.Commands, args[0])
		if sub == nil {
			fmt.Fprintf(env.Stderr, "tessera %s: unknown command %q\nRun 'tessera help %s' for the list.\n", cmd.Name, args[0], cmd.Name)
			return exitUsage
		}
		cmd, path, args = sub, append(path, sub.Name), args[1:]
	}

	name := strings.Join(path, " ")
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	runner := cmd.Flags(fs)
	fs.Usage = func() { printVerbUsage(env.Stderr, name, cmd, fs) }
	positional, err := parseInterleaved(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage // the flag package has printed the problem and the usage
	}
	if err := finiteFloats(fs); err != nil {
		fmt.Fprintln(env.Stderr, err)
		fs.Usage()
		return exitUsage
	}
	switch {
	case cmd.NoArgs && len(positional) > 0:
		err = usagef("unexpected arguments %q", positional)
	case cmd.Args != nil && len(positional) != cmd.Args.n:
		err = usagef("%s", cmd.Args.msg)
	default:
		err = runner(ctx, env, positional)
	}
	var ue *bench.UsageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(env.Stderr, "%s: %s\nusage: %s %s\nRun 'tessera help %s' for details.\n", name, ue.Msg, name, cmd.UsageLine, strings.Join(path[1:], " "))
		return exitUsage
	default:
		fmt.Fprintf(env.Stderr, "%s: %v\n", name, err)
		return exitFailed
	}
}

// parseInterleaved parses flags that may come before or after positional
// arguments ("solve BOARD -json" as well as "solve -json BOARD"); after
// "--" everything is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func find(cmds []*Command, name string) *Command {
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// help prints the help for the command named by args.
func help(env *Env, args []string) int {
	if len(args) == 0 {
		printTopUsage(env.Stdout)
		return exitOK
	}
	path := []string{"tessera"}
	cmds := families
	var cmd *Command
	for _, a := range args {
		cmd = find(cmds, a)
		if cmd == nil {
			fmt.Fprintf(env.Stderr, "tessera help: unknown command %q\n", strings.Join(append(path[1:], a), " "))
			return exitUsage
		}
		path = append(path, a)
		cmds = cmd.Commands
	}
	if cmd.Flags == nil {
		printCommandHelp(env.Stdout, path, cmd)
		return exitOK
	}
	name := strings.Join(path, " ")
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	cmd.Flags(fs)
	printVerbUsage(env.Stdout, name, cmd, fs)
	return exitOK
}

func printTopUsage(w io.Writer) {
	fmt.Fprint(w, `Tessera solves puzzles, on the command line and in its web app ("tessera serve": `+catalog.GameList()+`).

Usage:

	tessera <command> [verb] [flags] [arguments]

The commands are:

`)
	listCommands(w, families)
	fmt.Fprint(w, `
Use "tessera help <command>" for more information about a command.

Conventions: flags may come before or after arguments; -json prints one JSON
object (one per line for commands that process many items, then a summary
line); progress goes to stderr on a terminal or with -progress; -seed, -timeout
and -o mean the same everywhere. Exit status: 0 ok, 1 failed, 2 usage.
`)
}

// listCommands lists cmds with their short descriptions, aligned.
func listCommands(w io.Writer, cmds []*Command) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, c := range cmds {
		fmt.Fprintf(tw, "\t%s\t%s\n", c.Name, c.Short)
	}
	tw.Flush()
}

func printCommandHelp(w io.Writer, path []string, cmd *Command) {
	name := strings.Join(path, " ")
	if cmd.Long != "" {
		fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(cmd.Long))
	}
	fmt.Fprintf(w, "Usage:\n\n\t%s <verb> [flags] [arguments]\n\nThe verbs are:\n\n", name)
	listCommands(w, cmd.Commands)
	fmt.Fprintf(w, "\nUse \"tessera help %s <verb>\" for more information about a verb.\n", strings.Join(path[1:], " "))
}

func printVerbUsage(w io.Writer, name string, cmd *Command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s %s\n\n", name, cmd.UsageLine)
	if cmd.Long != "" {
		fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(cmd.Long))
	} else if cmd.Short != "" {
		fmt.Fprintf(w, "%s.\n\n", cmd.Short)
	}
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "Flags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}
