package catalog

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// Entry is one named solver of a family: S is the family's solver
// interface (samegame.Solver, jigsaw.Solver, ...) and O the family's
// options, the values of the flags every front end offers.
type Entry[S, O any] struct {
	// ID is what -algo, the web app's menus, bench method names and job
	// specs use: lower case, stable, never reused for another solver.
	ID string
	// Name is the solver's name for people ("IDA* with pattern databases").
	Name string
	// Doc is one line on what it does and when to use it.
	Doc string
	// Optimal reports whether a finished run proves its answer optimal.
	Optimal bool
	// Anytime reports whether the solver improves an answer until its
	// budget ends: stopped by its budget with an answer, it succeeds with
	// its best; a solver that is not anytime fails there.
	Anytime bool
	// Plays lists what it plays where a family has kinds of puzzles (the
	// rules of samegame: "standard", "dust"); empty: all of them.
	Plays []string
	// Reads lists the options it reads, by their json names (Options):
	// giving it another is an error, and forms show it these.
	Reads []string
	// New builds the solver value from the options; it fails with a
	// message a person can act on when an option does not suit it.
	New func(O) (S, error)
}

// Table is a family's solvers, in the order menus and help list them.
type Table[S, O any] []Entry[S, O]

// Lookup returns the entry with the given id, or an error naming the ids
// there are.
func (t Table[S, O]) Lookup(id string) (Entry[S, O], error) {
	for _, e := range t {
		if e.ID == id {
			return e, nil
		}
	}
	return Entry[S, O]{}, fmt.Errorf("unknown solver %q (have %s)", id, strings.Join(t.IDs(), ", "))
}

// New looks id up and builds its solver from opts.
func (t Table[S, O]) New(id string, opts O) (S, error) {
	e, err := t.Lookup(id)
	if err != nil {
		var zero S
		return zero, err
	}
	return e.New(opts)
}

// IDs lists the ids in table order.
func (t Table[S, O]) IDs() []string {
	ids := make([]string, len(t))
	for i, e := range t {
		ids[i] = e.ID
	}
	return ids
}

// Menu is an entry without its constructor, for listings and the web app.
type Menu struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Doc     string   `json:"doc"`
	Optimal bool     `json:"optimal"`
	Anytime bool     `json:"anytime"`
	Plays   []string `json:"plays,omitempty"`
	Reads   []string `json:"reads,omitempty"`
}

// Playing returns the entries that play kind (those whose Plays is empty or
// names it), in table order.
func (t Table[S, O]) Playing(kind string) Table[S, O] {
	var out Table[S, O]
	for _, e := range t {
		if len(e.Plays) == 0 || slices.Contains(e.Plays, kind) {
			out = append(out, e)
		}
	}
	return out
}

// Menu lists the table's entries for people.
func (t Table[S, O]) Menu() []Menu {
	m := make([]Menu, len(t))
	for i, e := range t {
		m[i] = Menu{ID: e.ID, Name: e.Name, Doc: e.Doc, Optimal: e.Optimal, Anytime: e.Anytime, Plays: e.Plays, Reads: e.Reads}
	}
	return m
}

// Help formats the table for `tessera help FAMILY solve`: one line per
// solver, its id, whether it proves optimality, and its doc line.
func (t Table[S, O]) Help() string {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 8, 2, ' ', 0)
	for _, e := range t {
		opt := ""
		if e.Optimal {
			opt = "optimal"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", e.ID, opt, e.Doc)
	}
	tw.Flush()
	return sb.String()
}
