package catalog

import (
	"encoding"
	"flag"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The solve contract: every front end (the command line, bench, the web
// app, workers) performs one operation, "solve this puzzle with catalogue
// solver X, these options, this budget", and spells it with the family's
// types of this package:
//
//   - Options (SameGameOptions, ...): plain data that travels as JSON, the
//     zero value giving every solver its defaults. Each field's json tag
//     names it (and, with '_' read as '-', its command-line flag) and its
//     help tag documents it: Options turns a struct into that list, and
//     BindFlags defines the flags from it.
//   - Hooks (SameGameHooks, ...): what a run needs that never travels:
//     progress callbacks, executors, journals.
//   - an Entry of the family's Table declares its capabilities as data:
//     whether it proves its answer (Optimal) or improves it until its budget
//     ends (Anytime), what it plays (Plays), the options it reads (Reads).
//     "-X does not apply" errors (Applies), the web's menus and the bench's
//     reporting come from these.
//   - Record (SameGameRecord, ...): the one result, what `solve -json`
//     prints, each `bench -json` line and what a job returns.
//   - Job (SameGameJob, ...): Spec and the puzzle itself, inline; the job
//     kind "<family>.solve" runs it on any worker (JobKinds).

// Budget is what a solve may spend: wall time, or the CPU time of its
// thread with CPU (fair on a loaded machine). Zero Timeout: no limit.
type Budget struct {
	Timeout time.Duration `json:"timeout_ns,omitempty"`
	CPU     bool          `json:"cpu,omitempty"`
}

// Spec names a solve: the catalogue solver, its options and its budget.
type Spec[O any] struct {
	Solver  string `json:"solver"`
	Options O      `json:"options"`
	Budget  Budget `json:"budget"`
}

// Option describes one field of a family's options: its name (the json
// tag, as the web's forms and job specs spell it), its flag (the name with
// '-' for '_'), its help text and its Go type's kind.
type Option struct {
	Name string `json:"name"`
	Flag string `json:"flag"`
	Help string `json:"help"`
	Kind string `json:"kind"` // int, uint, bool, string, float, duration, text
	// All is set for options every solver of the family reads (a seed).
	All   bool `json:"all,omitempty"`
	index []int
}

// Options lists the fields of an options struct (a value or pointer) that
// carry a json tag, in declaration order, but for those tagged flag:"-"
// (set by front ends, not people). A field tagged flag:"NAME" has the flag
// -NAME (where the command line has always spelled it otherwise than its
// name: npuzzle's -h for heuristic). A field tagged applies:"all" is read by
// every solver. It panics when v is not a struct: a programmer's
// error.
func Options(v any) []Option {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		panic("catalog: Options of a non-struct " + t.String())
	}
	var list []Option
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() || f.Tag.Get("flag") == "-" {
			continue
		}
		flagName := f.Tag.Get("flag")
		if flagName == "" {
			flagName = strings.ReplaceAll(name, "_", "-")
		}
		list = append(list, Option{Name: name, Flag: flagName, Help: f.Tag.Get("help"),
			Kind: optionKind(f.Type), All: f.Tag.Get("applies") == "all", index: f.Index})
	}
	return list
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	textType     = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func optionKind(t reflect.Type) string {
	switch {
	case t == durationType:
		return "duration"
	case reflect.PointerTo(t).Implements(textType):
		return "text"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "uint"
	case reflect.Bool:
		return "bool"
	case reflect.String:
		return "string"
	case reflect.Float32, reflect.Float64:
		return "float"
	}
	panic("catalog: option of unsupported type " + t.String())
}

// BindFlags defines a flag on fs for each option of *opts (Options), each
// flag's default the field's value in *opts when BindFlags is called, and
// writing the field when set. It returns the options in order, for
// Applies.
func BindFlags(fs *flag.FlagSet, opts any) []Option {
	v := reflect.ValueOf(opts)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic("catalog: BindFlags needs a pointer to an options struct")
	}
	list := Options(opts)
	for _, o := range list {
		f := v.Elem().FieldByIndex(o.index)
		p := f.Addr().Interface()
		switch o.Kind {
		case "duration":
			fs.DurationVar(p.(*time.Duration), o.Flag, f.Interface().(time.Duration), o.Help)
		case "text":
			fs.TextVar(p.(encoding.TextUnmarshaler), o.Flag, f.Interface().(encoding.TextMarshaler), o.Help)
		case "int", "uint", "float":
			fs.Var(numFlag{f}, o.Flag, o.Help)
		case "bool":
			fs.BoolVar(p.(*bool), o.Flag, f.Bool(), o.Help)
		case "string":
			fs.StringVar(p.(*string), o.Flag, f.String(), o.Help)
		}
	}
	return list
}

// numFlag sets a numeric field of any width (int, uint or float kinds),
// refusing what does not fit it: a value out of range, a sign on an
// unsigned field, NaN or infinities.
type numFlag struct{ v reflect.Value }

func (f numFlag) String() string {
	if !f.v.IsValid() {
		return "0"
	}
	return fmt.Sprint(f.v.Interface())
}

func (f numFlag) Set(s string) error {
	switch f.v.Kind() {
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(s, f.v.Type().Bits())
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%q is not a finite number", s)
		}
		f.v.SetFloat(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(s, 10, f.v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a non-negative integer that fits", s)
		}
		f.v.SetUint(n)
	default:
		n, err := strconv.ParseInt(s, 10, f.v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not an integer that fits", s)
		}
		f.v.SetInt(n)
	}
	return nil
}

// Applies checks that every option named in set (by name or flag) is read
// by at least one solver of ids (by each, when ids is one solver), from
// the entries' Reads; the error names the solvers that read it. Options
// read by all (All) always apply.
func (t Table[S, O]) Applies(options []Option, set []string, ids ...string) error {
	for _, name := range set {
		i := slices.IndexFunc(options, func(o Option) bool { return o.Name == name || o.Flag == name })
		if i < 0 || options[i].All {
			continue
		}
		o := options[i]
		read := false
		for _, id := range ids {
			e, err := t.Lookup(id)
			if err != nil {
				return err
			}
			read = read || slices.Contains(e.Reads, o.Name)
		}
		if read {
			continue
		}
		var readers []string
		for _, e := range t {
			if slices.Contains(e.Reads, o.Name) {
				readers = append(readers, e.ID)
			}
		}
		if len(readers) == 0 {
			return fmt.Errorf("-%s applies to no solver", o.Flag)
		}
		return fmt.Errorf("-%s applies to -algo %s, not %s", o.Flag, strings.Join(readers, ", "), strings.Join(ids, ", "))
	}
	return nil
}

// Given returns the names of the options of v (a struct or a pointer to
// one, as Options lists them) whose values are not zero: what a job's spec
// sets, for Applies as SetFlags is for a command line.
func Given(v any) []string {
	rv := reflect.Indirect(reflect.ValueOf(v))
	var set []string
	for _, o := range Options(v) {
		if !rv.FieldByIndex(o.index).IsZero() {
			set = append(set, o.Name)
		}
	}
	return set
}

// SetFlags returns the names of the flags of options that were set on fs.
func SetFlags(fs *flag.FlagSet, options []Option) []string {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.ContainsFunc(options, func(o Option) bool { return o.Flag == f.Name }) {
			set = append(set, f.Name)
		}
	})
	return set
}
