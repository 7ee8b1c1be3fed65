package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"tessera/internal/bench"
	"tessera/internal/progress"
)

// Flags shared by the families, with the same meaning everywhere.

// jsonFlag defines -json.
func jsonFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, "print JSON: one object, or one per line per item then a summary line")
}

// seedFlag defines -seed.
func seedFlag(fs *flag.FlagSet) *uint64 {
	return fs.Uint64("seed", 1, "random seed: the same seed gives the same result, unless a wall-clock -timeout ends the work first")
}

// timeoutFlag defines -timeout with a default.
func timeoutFlag(fs *flag.FlagSet, def time.Duration) *time.Duration {
	return durationFlag(fs, "timeout", def, "stop searching after this `duration` (0: no limit) and report the best found so far")
}

// durationFlag defines a duration flag that refuses negative values when
// the flags are parsed (a usage error, exit status 2).
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := def
	fs.Var((*nonNegDuration)(&d), name, usage)
	return &d
}

// nonNegDuration is a flag.Value for a duration of at least 0.
type nonNegDuration time.Duration

func (d *nonNegDuration) String() string { return time.Duration(*d).String() }

func (d *nonNegDuration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("parse error")
	}
	if v < 0 {
		return fmt.Errorf("negative duration %v", v)
	}
	*d = nonNegDuration(v)
	return nil
}

// outFlag defines -o.
func outFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("o", "", "write "+what+" to this file")
}

// progressFlag defines -progress.
func progressFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("progress", false, "report progress on stderr even when it is not a terminal")
}

// dataFlag defines -data, the shared benchmark data folder.
func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "benchmark data folder (default $TESSERA_DATA or ../shared/data)")
}

// newProgress returns a reporter on stderr, active on a terminal or when forced.
func newProgress(env *Env, force bool) *progress.Reporter {
	return progress.New(env.Stderr, force)
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// finiteFloats returns an error naming the first float64 flag of fs that
// was given a value that is not finite (NaN, Inf), so that no command
// validates a weight, a rate or a scale with comparisons that NaN passes.
// run calls it on every verb's flags after parsing them: a usage error.
func finiteFloats(fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && err == nil {
			if v, ok := g.Get().(float64); ok && (math.IsNaN(v) || math.IsInf(v, 0)) {
				err = fmt.Errorf("invalid value %q for flag -%s: %v is not a finite number", f.Value, f.Name, v)
			}
		}
	})
	return err
}

// withRemote runs f with a bench's -nats remote (nil without a URL),
// closed when f returns.
func withRemote(ctx context.Context, url string, f func(bench.Remote) error) error {
	c, closeClient, err := solveClient(ctx, url)
	if err != nil {
		return err
	}
	defer closeClient()
	if c == nil {
		return f(nil) // no URL: a nil interface, not a nil client
	}
	return f(c)
}

// benchFlags are the flags of every family's bench verb besides its
// solver's: -set (with the arguments), -timeout, -json, -progress and
// -nats.
type benchFlags struct {
	set, nats    *string
	timeout      *time.Duration
	asJSON, prog *bool
}

// define defines the flags; setHelp is -set's help.
func (b *benchFlags) define(fs *flag.FlagSet, setHelp string) {
	b.set = fs.String("set", "", setHelp)
	b.timeout = timeoutFlag(fs, time.Minute)
	b.asJSON = jsonFlag(fs)
	b.prog = progressFlag(fs)
	b.nats = natsFlag(fs)
}

// benchItems returns a bench's items: generate's when gen (the generator's
// flag, genFlag such as "-n N", was given), else read's of -set and the
// arguments. Both or neither is a usage error, and so is every error of
// theirs but the context's (a bad pattern, a name that matches nothing, a
// file that cannot be read or parsed, a generator's option out of range).
func benchItems[T any](b *benchFlags, args []string, genFlag string, gen bool, generate func() ([]T, error), read func([]string) ([]T, error)) ([]T, error) {
	list := commaList(*b.set, args)
	var items []T
	var err error
	switch {
	case gen && len(list) > 0:
		return nil, usagef("give either %s or -set, not both", strings.Fields(genFlag)[0])
	case gen:
		items, err = generate()
	case len(list) > 0:
		items, err = read(list)
	default:
		return nil, usagef("no puzzles: give -set FILES or %s", genFlag)
	}
	var ue *bench.UsageError
	if err != nil && !errors.As(err, &ue) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		err = usagef("%v", err)
	}
	return items, err
}

// run runs a bench: f gets the progress reporter, the -nats remote (nil
// without) and the writer of the results.
func (b *benchFlags) run(ctx context.Context, env *Env, f func(pr *progress.Reporter, remote bench.Remote, w *bench.Writer) error) error {
	pr := newProgress(env, *b.prog)
	defer pr.Done()
	return withRemote(ctx, *b.nats, func(remote bench.Remote) error {
		return f(pr, remote, &bench.Writer{W: env.Stdout, JSON: *b.asJSON})
	})
}
