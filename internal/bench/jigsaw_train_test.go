package bench

import (
	"errors"
	"flag"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/jigsaw/neural"
)

// TestGapTrainPlan checks that the options of a training run become its
// plan, and that each mistake is a usage error naming its flag.
func TestGapTrainPlan(t *testing.T) {
	tr := DefaultGapTrain()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	catalog.BindFlags(fs, &tr)
	if err := fs.Parse(strings.Fields("-train a,b -stage selfplay -init m -grids 3,4 -hints central -p-target truth -v-target outcome -value random -lr 0.5 -sims 7")); err != nil {
		t.Fatal(err)
	}
	tr.Out, tr.Seed = "out", 9
	plan, geom, err := tr.plan()
	if err != nil {
		t.Fatal(err)
	}
	if plan.Stage != "selfplay" || len(plan.Grids) != 2 || plan.Grids[1] != 4 || plan.FineTuneSims != 7 || plan.SelfPlay.Search.Sims != 7 ||
		plan.SelfPlay.P != neural.PTruth || plan.SelfPlay.V != neural.VOutcome || plan.Options.Value != neural.ValueRandom ||
		plan.Options.LearningRate != 0.5 || !plan.Options.CentralHint || plan.Options.Hints != 1 || plan.Options.Seed != 9 ||
		plan.Options.Crops != 20 || plan.Out != "out" || plan.Source != "a,b" || geom.Patch != 40 || geom.GapPx() != 4 {
		t.Errorf("plan %+v, geometry %+v", plan, geom)
	}
	if c := tr.command(40, 4); c != "tessera jigsaw neural train -stage selfplay -grids 3,4 -patch 40 -gap 4 -hints central -seed 9" {
		t.Errorf("command %q", c)
	}
	for _, c := range []struct {
		set  func(*GapTrain)
		want string
	}{
		{func(t *GapTrain) { t.Out = "" }, "-train and -o"},
		{func(t *GapTrain) { t.Stage = "x" }, "-stage \"x\""},
		{func(t *GapTrain) { t.MaxForeign = -1 }, "-max-missing and -max-foreign"},
		{func(t *GapTrain) { t.Grids = "3,9" }, "-grids"},
		{func(t *GapTrain) { t.Value = "x" }, "-value"},
		{func(t *GapTrain) { t.Init = "" }, "-stage selfplay needs -init"},
		{func(t *GapTrain) { t.Patch = 1 }, "-patch 1 -gap 4"},
		{func(t *GapTrain) { t.Hints = "x" }, "-hints \"x\""},
		{func(t *GapTrain) { t.PTarget = "x" }, "-p-target"},
		{func(t *GapTrain) { t.VTarget = "x" }, "-v-target"},
	} {
		bad := tr
		c.set(&bad)
		_, _, err := bad.plan()
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v", c.want, err)
		}
	}
}

// TestGapsPrepare checks the bench's settings from a command line.
func TestGapsPrepare(t *testing.T) {
	dir := t.TempDir()
	if err := WritePNG(filepath.Join(dir, "a.png"), image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	g := Gaps{Crops: 1, Geometry: neural.Geometry{Grid: 3, Patch: 40, Gap: 4}}
	for _, c := range []struct {
		g           Gaps
		set, report string
		remote      bool
		want        string
	}{
		{g, "", "best", false, "-set is required"},
		{Gaps{Missing: -1, Crops: 1}, dir, "best", false, "-missing and -foreign must be"},
		{g, dir, "best,x", false, "-report \"best,x\""},
		{Gaps{Crops: 1, Missing: 1}, dir, "best", true, "without -nats"},
		{Gaps{Crops: 1, Errors: true}, dir, "best", true, "-errors needs"},
	} {
		err := c.g.Prepare(c.set, c.report, c.remote)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q %q: got %v, want %q", c.set, c.report, err, c.want)
		}
	}
	if err := g.Prepare(dir, "best, oracle", false); err != nil || len(g.Report) != 2 || g.Report[1] != "oracle" || len(g.Files) != 1 {
		t.Errorf("reports %v, files %v (%v): want best, oracle and a.png", g.Report, g.Files, err)
	}
}
