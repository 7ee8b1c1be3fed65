package catalog

import (
	"encoding/json"
	"flag"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
)

// bind binds the flags of opts (a pointer) on a fresh flag set, silent,
// and returns it with the options and their flags' names.
func bind(opts any) (*flag.FlagSet, []Option, []string) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	list := BindFlags(fs, opts)
	var names []string
	for _, o := range list {
		names = append(names, o.Flag)
	}
	return fs, list, names
}

// The options' flags come from their fields: every json-tagged field but
// those set by front ends (restart) is a flag with its help, the defaults
// are the values given, and a set flag writes its field.
func TestBindFlags(t *testing.T) {
	opts := SameGameOptions{Seed: 1}
	fs, list, names := bind(&opts)
	for _, o := range list {
		if o.Help == "" {
			t.Errorf("-%s has no help", o.Flag)
		}
	}
	want := []string{"order", "lookahead", "table-bits", "width", "level", "iterations", "nodes", "seed", "no-tabu", "tabu-pairs", "stabilize", "portfolio", "round", "move-code", "tabu-colors", "prior-left", "prior-size", "tabu-second", "alpha", "repeats", "model", "views", "dist"}
	if !slices.Equal(names, want) {
		t.Fatalf("flags %v, want %v", names, want)
	}
	if f := fs.Lookup("seed"); f.DefValue != "1" {
		t.Fatalf("-seed default %q", f.DefValue)
	}
	err := fs.Parse([]string{"-order", "lookahead", "-lookahead", "3", "-table-bits", "20", "-nodes", "99", "-seed", "18446744073709551615", "-no-tabu"})
	if err != nil {
		t.Fatal(err)
	}
	if opts != (SameGameOptions{Order: samegame.Lookahead, LookaheadPlies: 3, TableBits: 20, Nodes: 99, Seed: 1<<64 - 1, NoTabu: true}) {
		t.Fatalf("parsed %+v", opts)
	}
	if got := SetFlags(fs, list); !slices.Equal(got, []string{"lookahead", "no-tabu", "nodes", "order", "seed", "table-bits"}) {
		t.Fatalf("set flags %v", got)
	}
	for _, bad := range [][]string{{"-level", "x"}, {"-level", "1e3"}, {"-seed", "-1"}, {"-order", "random"}, {"-nodes", "99999999999999999999"}} {
		if fs, _, _ := bind(&SameGameOptions{}); fs.Parse(bad) == nil {
			t.Errorf("%v parsed", bad)
		}
	}
}

// "-X does not apply" comes from the entries' Reads: an option no chosen
// solver reads is refused, naming those that read it; the seed applies to
// all.
func TestApplies(t *testing.T) {
	list := Options(SameGameOptions{})
	for _, c := range []struct {
		set  []string
		ids  []string
		want string
	}{
		{[]string{"level"}, []string{"nrpa"}, ""},
		{[]string{"level"}, []string{"beam"}, "-level applies to -algo nrpa, nmcs, not beam"},
		{[]string{"level", "width"}, []string{"nmcs", "beam"}, ""},
		{[]string{"seed"}, []string{"exact"}, ""},
		{[]string{"lookahead"}, []string{"dfs"}, ""},
		{[]string{"table-bits"}, []string{"greedy"}, "-table-bits applies to -algo exact, dfs, not greedy"},
		{[]string{"views"}, []string{"nn"}, "-views applies to -algo nn-after, not nn"},
	} {
		err := SameGame.Applies(list, c.set, c.ids...)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("%v with %v: %v, want %q", c.set, c.ids, err, c.want)
		}
	}
	// Every option is read by some solver, and every name an entry reads
	// is an option.
	for _, o := range list {
		if o.All {
			continue
		}
		if !slices.ContainsFunc(SameGame, func(e Entry[samegame.Solver, SameGameRun]) bool { return slices.Contains(e.Reads, o.Name) }) {
			t.Errorf("option %s is read by no solver", o.Name)
		}
	}
	for _, e := range SameGame {
		for _, r := range e.Reads {
			if !slices.ContainsFunc(list, func(o Option) bool { return o.Name == r }) {
				t.Errorf("%s reads %q, which is no option", e.ID, r)
			}
		}
	}
}

// A job travels as JSON (the seed as a string, so that a browser does not
// round it) and runs to the same record as in process; the record's clicks
// replay to its figures; a solver that is not anytime stopped by its
// budget fails, an anytime one succeeds with its best.
func TestSameGameJob(t *testing.T) {
	entries, err := samegame.ParseSet(strings.NewReader("example 1\nGGBBO\nOBBGG\nGGOOB\noptimal 5\n"), samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	e := entries[0]
	job := SameGameJob{Spec: Spec[SameGameOptions]{Solver: "exact", Options: SameGameOptions{Seed: 1<<63 + 5}},
		Rules: "dust", Board: samegame.Format(e.Board, e.Notation), Name: e.Name, Number: 1, Known: e.Optimal}
	b, err := json.Marshal(job)
	if err != nil || !strings.Contains(string(b), `"seed":"9223372036854775813"`) {
		t.Fatalf("%s (%v)", b, err)
	}
	out, err := JobKinds()[SameGameKind](t.Context(), b, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := out.(SameGameRecord)
	direct := job.Run(t.Context(), SameGameHooks{})
	if rec.Moves != direct.Moves || rec.Clicks != direct.Clicks || rec.Proven() != direct.Proven() || rec.Nodes != direct.Nodes {
		t.Fatalf("job %+v, in process %+v", rec, direct)
	}
	sol, err := rec.Solution()
	if err != nil || !rec.Proven() || rec.Error != "" || rec.Clicks > 5 || rec.Left != 0 || rec.Solver != "exact" || rec.Name != "example 1" {
		t.Fatalf("record %+v (%v)", rec, err)
	}
	if res, err := samegame.Replay(e.Board, sol.Moves); err != nil || !res.Cleared || res.Clicks != rec.Clicks {
		t.Fatalf("clicks replay to %+v (%v)", res, err)
	}
	// Budgets: a hard board, 1 ms. (Since the half bound, the 8x6 board of
	// 4 colours used before is proved in about 90 ms when the test is
	// pinned to one core, where the 1 ms deadline fires late; 8x8 of 5
	// colours is not.)
	hard := samegame.Random(8, 8, 5, samegame.Dust, rand.New(rand.NewPCG(9, 9)))
	for _, c := range []struct {
		id   string
		fail bool
	}{{"exact", true}, {"beam", false}} {
		j := SameGameJob{Spec: Spec[SameGameOptions]{Solver: c.id, Options: SameGameOptions{Width: 1 << 20}, Budget: Budget{Timeout: time.Millisecond}},
			Rules: "dust", Board: samegame.Format(hard, samegame.Letters)}
		r := j.Run(t.Context(), SameGameHooks{})
		if r.Stopped != "time" || (r.Error != "") != c.fail {
			t.Errorf("%s within 1 ms: %+v", c.id, r)
		}
	}
	// Bad jobs fail with a message; a job names no file.
	for _, c := range []struct{ spec, want string }{
		{`{"solver":"exact","rules":"dust","board":"GX?"}`, "samegame"},
		{`{"solver":"best","rules":"dust","board":"GG"}`, "unknown solver"},
		{`{"solver":"nn","rules":"dust","board":"GG","options":{"model":"/etc/passwd"}}`, "no file"},
		{`{"solver":"nrpa","rules":"standard","board":"1 1","options":{"level":11}}`, "-level"},
	} {
		out, err := JobKinds()[SameGameKind](t.Context(), json.RawMessage(c.spec), nil)
		msg := ""
		if err != nil {
			msg = err.Error()
		} else if r, ok := out.(SameGameRecord); ok {
			msg = r.Error
		}
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want %q", c.spec, msg, c.want)
		}
	}
}

// A flag tag names the flag where the command line spells it otherwise
// than the json name; Applies finds the option by either; Given lists the
// options a spec sets.
func TestFlagTagAndGiven(t *testing.T) {
	type opts struct {
		Heuristic string  `json:"heuristic,omitempty" flag:"h" help:"h"`
		MaxStates int64   `json:"max_states,omitempty" help:"m"`
		Weight    float64 `json:"weight,omitempty" flag:"w" help:"w"`
		Hidden    bool    `json:"hidden,omitempty" flag:"-"`
	}
	var o opts
	fs, list, _ := bind(&o)
	var names []string
	for _, op := range list {
		names = append(names, op.Name+"/"+op.Flag)
	}
	if want := []string{"heuristic/h", "max_states/max-states", "weight/w"}; !slices.Equal(names, want) {
		t.Fatalf("options %v, want %v", names, want)
	}
	if err := fs.Parse([]string{"-h", "pdb", "-w", "2"}); err != nil || o.Heuristic != "pdb" || o.Weight != 2 {
		t.Fatalf("parsed %+v, %v", o, err)
	}
	if got := SetFlags(fs, list); !slices.Equal(got, []string{"h", "w"}) {
		t.Fatalf("set flags %v", got)
	}
	o.Hidden = true
	if got := Given(o); !slices.Equal(got, []string{"heuristic", "weight"}) {
		t.Fatalf("given %v", got)
	}
	if got := Given(&opts{MaxStates: 3}); !slices.Equal(got, []string{"max_states"}) {
		t.Fatalf("given %v", got)
	}
}

// The nrpa entry hands its search options to samegame.NRPA, and refuses
// them with -dist.
func TestSameGameNRPAOptions(t *testing.T) {
	o := SameGameOptions{Level: 2, Stabilize: 3, TabuColors: 5, PriorLeft: 1.5, PriorSize: -0.5, TabuSecond: true, Alpha: 0.5, Repeats: 4, Seed: 7}
	s, err := SameGame.New("nrpa", SameGameRun{SameGameOptions: o})
	if err != nil {
		t.Fatal(err)
	}
	n, ok := s.(samegame.NRPA)
	if !ok || n.Level != 2 || n.Stabilize != 3 || n.TabuColors != 5 || n.PriorLeft != 1.5 || n.PriorSize != -0.5 || !n.TabuSecond || n.Alpha != 0.5 || n.Repeats != 4 || n.Seed != 7 {
		t.Fatalf("%#v", s)
	}
	o.Dist = 2
	if _, err := SameGame.New("nrpa", SameGameRun{SameGameOptions: o}); err == nil {
		t.Fatal("-dist with the single-process options accepted")
	}
	if _, err := SameGame.New("nrpa", SameGameRun{SameGameOptions: SameGameOptions{Dist: 2, Alpha: 2}}); err == nil {
		t.Fatal("-dist with -alpha accepted")
	}
	if _, err := SameGame.New("nrpa", SameGameRun{SameGameOptions: SameGameOptions{Dist: 2, Repeats: 3}}); err == nil {
		t.Fatal("-dist with -repeats accepted")
	}
	if err := (SameGameOptions{Repeats: -1}).Check(); err == nil || !strings.Contains(err.Error(), "-repeats") {
		t.Fatalf("-repeats -1: %v", err)
	}
	for _, a := range []float64{-1, 101, math.NaN(), math.Inf(1)} {
		if err := (SameGameOptions{Alpha: a}).Check(); err == nil || !strings.Contains(err.Error(), "-alpha") {
			t.Fatalf("-alpha %v: %v", a, err)
		}
	}
}
