package bench

import (
	"strings"
	"testing"

	"tessera/samegame"
)

// TestSameGameRandomParse checks the sizes, rules and counts of random
// boards, and that a mistake is a usage error.
func TestSameGameRandomParse(t *testing.T) {
	rules, w, h, err := SameGameRandom{Rules: "standard", Size: "15X10", Colors: 5, N: 3}.Parse()
	if err != nil || rules != samegame.Standard || w != 15 || h != 10 {
		t.Errorf("got %v %dx%d, %v", rules, w, h, err)
	}
	for _, r := range []SameGameRandom{
		{Rules: "go", Size: "8x6", Colors: 5, N: 1},
		{Rules: "dust", Size: "8x0", Colors: 5, N: 1},
		{Rules: "dust", Size: "8", Colors: 5, N: 1},
		{Rules: "dust", Size: "99x6", Colors: 5, N: 1},
		{Rules: "dust", Size: "8x6", Colors: 11, N: 1},
		{Rules: "dust", Size: "8x6", Colors: 5, N: 0},
	} {
		if _, _, _, err := r.Parse(); !isUsage(err) {
			t.Errorf("%+v: got %v, want a usage error", r, err)
		}
	}
}

// TestSameGameDataCheck checks the settings of a dataset.
func TestSameGameDataCheck(t *testing.T) {
	d := DefaultSameGameData()
	d.Out = "x"
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set  func(*SameGameData)
		want string
	}{
		{func(d *SameGameData) { d.Out = "" }, "-o FILE"},
		{func(d *SameGameData) { d.Workers = 0 }, "-workers"},
		{func(d *SameGameData) { d.Solver = "nrpa" }, "-solver \"nrpa\""},
		{func(d *SameGameData) { d.Width = 0 }, "positive -width"},
		{func(d *SameGameData) { d.Rules = "standard" }, "-solver exact needs dust"},
		{func(d *SameGameData) { d.Labels = 2 }, "-labels needs -solver beam"},
	} {
		bad := d
		c.set(&bad)
		if err := bad.Check(); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
}

// TestSameGameTrainOptions checks that the settings of a training run
// become policy.TrainOptions, and their mistakes usage errors.
func TestSameGameTrainOptions(t *testing.T) {
	tr := DefaultSameGameTrain()
	tr.Data, tr.Out, tr.Conv, tr.Hidden, tr.Val = "a", "b", "", "8, 16", 0
	o, err := tr.options()
	if err != nil || o.Arch.Conv != nil || len(o.Arch.Hidden) != 2 || o.Arch.Hidden[1] != 16 || !o.Arch.Value || !o.NoValidation ||
		o.Epochs != 30 || o.BatchSize != 64 || o.Patience != 4 || o.Seed != 1 {
		t.Errorf("got %+v, %v", o, err)
	}
	for _, c := range []struct {
		set  func(*SameGameTrain)
		want string
	}{
		{func(t *SameGameTrain) { t.Data = "" }, "-data FILE and -o MODEL"},
		{func(t *SameGameTrain) { t.Conv = "3,x" }, "bad -conv width \"x\""},
		{func(t *SameGameTrain) { t.Hidden = "0" }, "bad -hidden width \"0\""},
		{func(t *SameGameTrain) { t.LR = 0 }, "-lr must be positive"},
		{func(t *SameGameTrain) { t.After = 1 }, "-after K"},
	} {
		bad := tr
		c.set(&bad)
		if _, err := bad.options(); !isUsage(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
}

// TestReadSameGameClicks reads clicks from an argument and from stdin,
// refusing more than 1 MiB.
func TestReadSameGameClicks(t *testing.T) {
	if c, err := ReadSameGameClicks(nil, "1,2 3,4"); c != "1,2 3,4" || err != nil {
		t.Errorf("argument: %q, %v", c, err)
	}
	if c, err := ReadSameGameClicks(strings.NewReader("1 2\n"), "-"); c != "1 2\n" || err != nil {
		t.Errorf("stdin: %q, %v", c, err)
	}
	if _, err := ReadSameGameClicks(strings.NewReader(strings.Repeat("1,1 ", maxClicksBytes/4+1)), "-"); !isUsage(err) {
		t.Errorf("over 1 MiB: %v, want a usage error", err)
	}
}

// TestSameGameDefault checks the default solver of each rule set and an
// unknown one.
func TestSameGameDefault(t *testing.T) {
	for _, c := range []struct {
		algo  string
		rules samegame.Rules
		id    string
		best  bool
	}{{"", samegame.Dust, "exact", true}, {"", samegame.Standard, "nrpa", false}, {"Beam", samegame.Dust, "beam", false}} {
		if id, best, err := SameGameDefault(c.algo, c.rules); id != c.id || best != c.best || err != nil {
			t.Errorf("%q %v: got %s %v %v", c.algo, c.rules, id, best, err)
		}
	}
	if _, _, err := SameGameDefault("nope", samegame.Dust); !isUsage(err) {
		t.Errorf("an unknown solver: %v, want a usage error", err)
	}
	if err := SameGamePlays(samegame.Standard, "nrpa", "exact"); !isUsage(err) || !strings.Contains(err.Error(), "-algo exact does not play standard") {
		t.Errorf("exact on standard rules: %v", err)
	}
}

// TestSameGameOutputs checks the files of a bench: -o needs one solver
// and no plot, and what the progress counts.
func TestSameGameOutputs(t *testing.T) {
	for _, c := range []struct {
		algos     []string
		plot, out string
		unit      string
	}{{[]string{"dfs"}, "", "o.txt", "boards"}, {[]string{"dfs", "beam"}, "", "", "solves"}, {[]string{"dfs"}, "p.png", "", "solves"}, {[]string{"dfs", "beam"}, "", "o.txt", ""}} {
		s := SameGame{Algos: c.algos}
		unit, err := s.Outputs(c.plot, c.out)
		if unit != c.unit || (c.unit == "") != isUsage(err) || (s.Plot != nil) != (c.plot != "") {
			t.Errorf("%v %q %q: got %q, %v", c.algos, c.plot, c.out, unit, err)
		}
	}
	if err := (&SameGame{Workers: 0}).Prepare(nil, "x", "", SameGameRandom{}, ""); !isUsage(err) {
		t.Errorf("no workers: %v", err)
	}
}
