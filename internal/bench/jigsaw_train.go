package bench

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/jigsaw/neural"
	"tessera/nn"
)

// GapTrain is a training run of the learned gap-puzzle solver (`tessera
// jigsaw neural train`): plain data, a field per option, each named by its
// json tag (its flag: catalog.BindFlags) and documented by its help tag.
// DefaultGapTrain gives the defaults; Run checks and runs it.
type GapTrain struct {
	Train           string  `json:"train" help:"training images: folders and files, comma-separated (required)"`
	Val             string  `json:"val" help:"validation images (for the reported accuracies)"`
	Stage           string  `json:"stage" help:"all (pair, heads, finetune), pair, heads, finetune, selfplay or fragments"`
	MaxMissing      int     `json:"max_missing" help:"fragments: most patches missing per puzzle"`
	MaxForeign      int     `json:"max_foreign" help:"fragments: most strays (patches of another image) per puzzle"`
	FragPlay        int     `json:"frag_play" help:"fragments: games per puzzle played by sampling the current P (-init's fragment heads), their states added to V's examples"`
	Grids           string  `json:"grids" help:"grid sizes of the heads, comma-separated"`
	Init            string  `json:"init" help:"start from this model folder"`
	Crops           int     `json:"crops" help:"pair: random 3x3 puzzles per training image"`
	Puzzles         int     `json:"puzzles" help:"heads: random puzzles per grid"`
	FineTunePuzzles int     `json:"finetune_puzzles" help:"finetune: puzzles solved by MCTS per grid"`
	Sims            int     `json:"sims" help:"finetune: MCTS simulations per placement"`
	Epochs          int     `json:"epochs" help:"most epochs per network"`
	MaxSteps        int     `json:"max_steps" help:"most batches per network (0: no limit)"`
	LR              float64 `json:"lr" help:"Adam's learning rate"`
	Value           string  `json:"value" help:"V's target for a correct partial reassembly: correct (1) or random (1/k! for k patches left)"`
	ValPuzzles      int     `json:"val_puzzles" help:"validation puzzles per measure"`
	Patch           int     `json:"patch" help:"patch side in pixels of a new model (-init: must be the model's)"`
	Gap             int     `json:"gap" help:"gap between patches in pixels of a new model (-init: must be the model's)"`
	Hints           string  `json:"hints" help:"heads and finetune: patches always placed in their true cell in the examples, or central"`
	SelfPlayEpochs  int     `json:"selfplay_epochs" help:"selfplay: most epochs of self-play (each on -finetune-puzzles fresh puzzles)"`
	Patience        int     `json:"patience" help:"selfplay: stop after this many epochs without a better -bench-val score"`
	Explore         int     `json:"explore" help:"selfplay: first placements of each game drawn from the root's visits"`
	PTarget         string  `json:"p_target" help:"selfplay: P learns the root's visit distribution (visits) or the true cell of correct roots (truth)"`
	VTarget         string  `json:"v_target" help:"selfplay: V learns each state's label (label) or the game's outcome (outcome)"`
	Terminals       bool    `json:"terminals" help:"selfplay: V also learns every complete reassembly the search valued, labelled with the truth"`
	Replay          int     `json:"replay" help:"selfplay: fresh puzzles of supervised examples mixed in per epoch (0: -finetune-puzzles; -1: none)"`
	BenchVal        string  `json:"bench_val" help:"selfplay: images benched after every epoch (one MCTS attempt, predicted reward, 100 simulations, seed 1); the best epoch by perfect puzzles is kept"`
	BenchTest       string  `json:"bench_test" help:"selfplay: images benched after every epoch for the curve only (never used to choose)"`
	BenchCrops      int     `json:"bench_crops" help:"selfplay: puzzles per image of -bench-val (those of -bench-test: 1)"`
	// Seed draws the puzzles and the new networks, Out is the model
	// folder written (required); Regap says -patch or -gap were given, so
	// that an -init model of another gap is warm-started (trainModel).
	Seed  uint64 `json:"seed" flag:"-"`
	Out   string `json:"out" flag:"-"`
	Regap bool   `json:"regap,omitempty" flag:"-"`
}

// DefaultGapTrain is a GapTrain with the defaults of every option.
func DefaultGapTrain() GapTrain {
	return GapTrain{Stage: "all", MaxMissing: 2, MaxForeign: 2, Grids: "3", Crops: 20, Puzzles: 1000, FineTunePuzzles: 100, Sims: 50,
		Epochs: 10, LR: 1e-3, Value: "correct", ValPuzzles: 200, Patch: 40, Gap: 4, Hints: "0", SelfPlayEpochs: 5, Patience: 2,
		PTarget: "visits", VTarget: "label", BenchCrops: 1, Seed: 1}
}

var (
	gapValueTargets = map[string]neural.ValueTarget{"correct": neural.ValueCorrect, "random": neural.ValueRandom}
	gapPTargets     = map[string]neural.PTarget{"visits": neural.PVisits, "truth": neural.PTruth}
	gapVTargets     = map[string]neural.VTarget{"label": neural.VLabel, "outcome": neural.VOutcome}
)

// plan checks t (usage errors) and returns the training plan without its
// model, images, callbacks and provenance, and the geometry of a new model.
func (t *GapTrain) plan() (neural.Plan, neural.Geometry, error) {
	var plan neural.Plan
	var gs []int
	for _, s := range strings.Split(t.Grids, ",") {
		var g int
		if _, err := fmt.Sscanf(strings.TrimSpace(s), "%d", &g); err != nil || g < 2 || g > 8 {
			return plan, neural.Geometry{}, Usagef("-grids %q: sizes 2 to 8, comma-separated", t.Grids)
		}
		gs = append(gs, g)
	}
	geom := neural.Geometry{Grid: 3, Patch: t.Patch, Gap: neural.GapOf(t.Gap)}
	vt, okV := gapValueTargets[t.Value]
	pt, okP := gapPTargets[t.PTarget]
	st, okS := gapVTargets[t.VTarget]
	switch {
	case t.Train == "" || t.Out == "":
		return plan, geom, Usagef("-train and -o are required")
	case !slices.Contains(neural.Stages, t.Stage):
		return plan, geom, Usagef("-stage %q: want all, pair, heads, finetune, selfplay or fragments", t.Stage)
	case t.MaxMissing < 0 || t.MaxForeign < 0:
		return plan, geom, Usagef("-max-missing and -max-foreign must be 0 or more")
	case !okV:
		return plan, geom, Usagef("-value %q: want correct or random", t.Value)
	case t.Stage != "all" && t.Stage != "pair" && t.Init == "":
		return plan, geom, Usagef("-stage %s needs -init", t.Stage)
	case geom.Validate() != nil:
		return plan, geom, Usagef("-patch %d -gap %d: %v", t.Patch, t.Gap, geom.Validate())
	}
	nh, central, err := ParseGapHints(t.Hints)
	switch {
	case err != nil:
		return plan, geom, err
	case !okP:
		return plan, geom, Usagef("-p-target %q: want visits or truth", t.PTarget)
	case !okS:
		return plan, geom, Usagef("-v-target %q: want label or outcome", t.VTarget)
	}
	return neural.Plan{Stage: t.Stage, Grids: gs, FineTunePuzzles: t.FineTunePuzzles, FineTuneSims: t.Sims, ValPuzzles: t.ValPuzzles,
		SelfPlay: neural.SelfPlayOptions{Puzzles: t.FineTunePuzzles, Search: neural.Options{Sims: t.Sims}, Explore: t.Explore,
			Terminals: t.Terminals, Replay: t.Replay, P: pt, V: st},
		SelfPlayEpochs: t.SelfPlayEpochs, Patience: t.Patience,
		Fragments: neural.FragOptions{MaxMissing: t.MaxMissing, MaxForeign: t.MaxForeign, Play: t.FragPlay},
		Options: neural.TrainOptions{Crops: t.Crops, Puzzles: t.Puzzles, Epochs: t.Epochs, MaxSteps: t.MaxSteps, LearningRate: t.LR,
			Value: vt, Seed: t.Seed, Hints: nh, CentralHint: central},
		Out: t.Out, Source: t.Train}, geom, nil
}

// Run checks t (a mistake is a UsageError), loads the images and the
// model (-init's, or a new one) and trains it (neural.Model.Train),
// showing progress on p and the self-play bench curve's lines on log. It
// returns the training report, with the curve's points under
// "bench_curve".
func (t *GapTrain) Run(ctx context.Context, p *progress.Reporter, log io.Writer) (map[string]any, error) {
	plan, geom, err := t.plan()
	if err != nil {
		return nil, err
	}
	train, err := GapImages(t.Train)
	if err != nil {
		return nil, err
	}
	val, err := GapImages(t.Val)
	if err != nil {
		return nil, err
	}
	m, info, err := t.model(geom)
	if err != nil {
		return nil, err
	}
	curve := GapCurve{Val: t.BenchVal, Test: t.BenchTest, Crops: t.BenchCrops, Log: log}
	if t.BenchVal != "" {
		plan.Bench = curve.Bench
	}
	plan.Options.Progress = func(stage string, s nn.Stats) { TrainProgress(p, stage+" ", s) }
	plan.Info, plan.Log, plan.Command = info, p.Logf, t.command(m.Patch, m.Gap)
	rep, err := m.Train(ctx, train, val, plan)
	if err == nil && curve.Points != nil {
		rep["bench_curve"] = curve.Points
	}
	return rep, err
}

// command is the command recorded in a trained model's info, for a model
// of patch and gap pixels.
func (t *GapTrain) command(patch, gap int) string {
	c := fmt.Sprintf("tessera jigsaw neural train -stage %s -grids %s -patch %d -gap %d -hints %s -seed %d", t.Stage, t.Grids, patch, gap, t.Hints, t.Seed)
	if t.Stage == "fragments" {
		c += fmt.Sprintf(" -max-missing %d -max-foreign %d -frag-play %d", t.MaxMissing, t.MaxForeign, t.FragPlay)
	}
	return c
}

// model is the model the training starts from: the model of folder Init
// (another gap with Regap for a warm start of the pair stage,
// neural.Model.Regap), or a new one of geometry geom drawn from Seed.
func (t *GapTrain) model(geom neural.Geometry) (*neural.Model, map[string]string, error) {
	if t.Init == "" {
		m, err := neural.NewModel(geom, neural.Arch{}, t.Seed)
		return m, map[string]string{}, err
	}
	m, info, err := neural.Load(t.Init)
	if err != nil || m.Patch == geom.Patch && m.Gap == geom.GapPx() || !t.Regap {
		return m, info, err
	}
	gap := m.Gap
	if !m.Regap(geom, t.Stage) {
		return nil, nil, Usagef("-init %s is a model for %d px patches with %d px gaps, not -patch %d -gap %d (another gap needs -stage pair or all)",
			t.Init, m.Patch, m.Gap, geom.Patch, geom.GapPx())
	}
	info["warm_start"] = fmt.Sprintf("from %s (%d px gaps)", t.Init, gap)
	return m, info, nil
}

// ParseGapHints reads a -hints value as the gap solvers' option reads it:
// a number of patches, or "central" (one hint, the central cell's patch).
func ParseGapHints(s string) (int, bool, error) {
	if n, err := (catalog.GapOptions{Hints: s}).Neural(0); err == nil && s != "" {
		return n.Hints, n.CentralHint, nil
	}
	return 0, false, Usagef("-hints %q: want a number of patches, or central", s)
}

// GapAccuracy measures a model's P and V heads on random puzzles (`tessera
// jigsaw neural accuracy`): plain data, a field per option as GapTrain's.
type GapAccuracy struct {
	Set     string `json:"set" help:"images: folders and files, comma-separated (required)"`
	Grid    int    `json:"grid" help:"the puzzles are GRID x GRID patches"`
	Hints   string `json:"hints" help:"patches always placed in their true cell, or central"`
	Puzzles int    `json:"puzzles" help:"random puzzles"`
	Model   string `json:"model" help:"model folder (default: the one shipped for -patch and -gap)"`
	Patch   int    `json:"patch" help:"patch side in pixels (picks the shipped model; with -model, the model's own)"`
	Gap     int    `json:"gap" help:"gap between patches in pixels (picks the shipped model; with -model, the model's own)"`
	Seed    uint64 `json:"seed" flag:"-"`
}

// DefaultGapAccuracy is a GapAccuracy with the defaults of every option.
func DefaultGapAccuracy() GapAccuracy {
	return GapAccuracy{Grid: 3, Hints: "0", Puzzles: 200, Patch: 40, Gap: 4, Seed: 1}
}

// Run checks a (a mistake is a UsageError), loads the model and the
// images, measures the heads (neural.Model.HeadAccuracyHints) and prints
// the accuracies to w (GapHeadAccuracy).
func (a *GapAccuracy) Run(ctx context.Context, w io.Writer, asJSON bool) error {
	if a.Set == "" || a.Puzzles < 1 {
		return Usagef("-set is required and -puzzles must be positive")
	}
	nh, central, err := ParseGapHints(a.Hints)
	if err != nil {
		return err
	}
	if nh >= a.Grid*a.Grid {
		return Usagef("-hints %d: want fewer than the %d patches", nh, a.Grid*a.Grid)
	}
	var m *neural.Model
	if a.Model == "" {
		m, _, err = neural.For(neural.Geometry{Grid: a.Grid, Patch: a.Patch, Gap: neural.GapOf(a.Gap)})
	} else {
		m, _, err = neural.Load(a.Model)
	}
	if err != nil {
		return err
	}
	if err := m.Fits(m.Geometry(a.Grid)); err != nil {
		return err
	}
	imgs, err := GapImages(a.Set)
	if err != nil {
		return err
	}
	acc, err := m.HeadAccuracyHints(ctx, imgs, a.Grid, a.Puzzles, a.Seed, nh, central)
	if err != nil {
		return err
	}
	return GapHeadAccuracy(w, acc, a.Grid, a.Hints, a.Puzzles, a.Seed, asJSON)
}
