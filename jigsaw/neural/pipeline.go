package neural

import (
	"context"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"
	"time"
)

// Plan is a whole training run of Model.Train: its stages, their
// settings, where the model goes and what it is recorded as.
type Plan struct {
	// Stage is "all" (pair, then heads and finetune for each grid),
	// "pair", "heads" or "finetune".
	Stage string
	// Grids are the grid sizes of the heads (nil: 3).
	Grids []int
	// Options are every network's training settings (Crops and Puzzles
	// included; Seed also drives the validation puzzles).
	Options TrainOptions
	// FineTunePuzzles is the number of puzzles MCTS solves per grid in
	// finetune (0: 100), FineTuneSims its simulations per placement (0:
	// 50); ValPuzzles the validation puzzles per measure (0: 200).
	FineTunePuzzles, FineTuneSims, ValPuzzles int
	// Out is the folder the model is saved to after every stage (Save);
	// Info is the model's provenance so far, to which Train adds a line
	// naming Command, the images' count and Source.
	Out     string
	Info    map[string]string
	Command string
	Source  string
	// Log, when set, gets a line when an interrupted training saves.
	Log func(format string, args ...any)
}

// Stages lists the valid Plan.Stage values.
var Stages = []string{"all", "pair", "heads", "finetune"}

// Train runs plan on m with the images train: the pair network, then for
// each grid the heads and the fine-tuning (as plan.Stage selects), saving
// the model to plan.Out after each stage with its provenance. Interrupted
// (ctx ended), it saves the networks with their best weights so far and
// returns ctx's error. With val images it then measures
// the pair network's and each head's accuracy on them. The report holds
// per stage its epochs, examples or states and the accuracies, with keys
// such as "pair_val_metric", "p3_examples", "finetune3_states",
// "val_pair_accuracy", "val_v3_accuracy" and "seconds".
func (m *Model) Train(ctx context.Context, train, val []image.Image, plan Plan) (map[string]any, error) {
	if !slices.Contains(Stages, plan.Stage) {
		return nil, fmt.Errorf("neural: stage %q: want all, pair, heads or finetune", plan.Stage)
	}
	grids := plan.Grids
	if len(grids) == 0 {
		grids = []int{3}
	}
	info := plan.Info
	if info == nil {
		info = map[string]string{}
	}
	rep := map[string]any{"stage": plan.Stage, "out": plan.Out}
	stopped := func(err error) error {
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			if plan.Log != nil {
				plan.Log("interrupted: saving the model so far in %s", plan.Out)
			}
			return nil
		}
		return err
	}
	start := time.Now()
	key := make([]string, len(grids))
	for i, g := range grids {
		key[i] = fmt.Sprint(g)
	}
	save := func() error {
		info["trained_"+plan.Stage+"_"+strings.Join(key, "_")] = fmt.Sprintf("%s on %d images of %s", plan.Command, len(train), plan.Source)
		return m.Save(plan.Out, info)
	}
	stage := func(s string) bool { return plan.Stage == "all" || plan.Stage == s }
	to := plan.Options
	if stage("pair") {
		st, err := m.TrainPair(ctx, train, to)
		if err := stopped(err); err != nil {
			return nil, err
		}
		rep["pair_epochs"], rep["pair_val_metric"] = st.Epoch, st.ValMetric
		if err := save(); err != nil || ctx.Err() != nil {
			return rep, errors.Join(err, ctx.Err())
		}
	}
	for _, g := range grids {
		if stage("heads") {
			st, err := m.TrainHeads(ctx, train, g, Arch{}, to)
			if err := stopped(err); err != nil {
				return nil, err
			}
			rep[fmt.Sprintf("p%d_examples", g)], rep[fmt.Sprintf("v%d_examples", g)] = st.PExamples, st.VExamples
			if err := save(); err != nil || ctx.Err() != nil {
				return rep, errors.Join(err, ctx.Err())
			}
		}
		if stage("finetune") {
			fo := to
			fo.Puzzles = max(plan.FineTunePuzzles, 0)
			if fo.Puzzles == 0 {
				fo.Puzzles = 100
			}
			sims := plan.FineTuneSims
			if sims <= 0 {
				sims = 50
			}
			st, states, err := m.FineTune(ctx, train, g, Options{Sims: sims, Reward: GroundTruth, Hints: to.Hints, CentralHint: to.CentralHint && g%2 == 1}, fo)
			if err := stopped(err); err != nil {
				return nil, err
			}
			rep[fmt.Sprintf("finetune%d_states", g)] = states
			rep[fmt.Sprintf("finetune%d_examples", g)] = st.PExamples + st.VExamples
			if err := save(); err != nil || ctx.Err() != nil {
				return rep, errors.Join(err, ctx.Err())
			}
		}
	}
	if len(val) > 0 {
		acc, err := m.PairAccuracy(val, 2, to.Seed+7)
		if err != nil {
			return nil, err
		}
		rep["val_pair_accuracy"] = acc
		count := plan.ValPuzzles
		if count <= 0 {
			count = 200
		}
		for _, g := range grids {
			if _, ok := m.Heads[g]; !ok {
				continue
			}
			pa, va, err := m.HeadAccuracy(ctx, val, g, count, to.Seed+11)
			if err != nil {
				return nil, err
			}
			rep[fmt.Sprintf("val_p%d_accuracy", g)], rep[fmt.Sprintf("val_v%d_accuracy", g)] = pa, va
			if to.Hints > 0 || to.CentralHint {
				acc, err := m.HeadAccuracyHints(ctx, val, g, count, to.Seed+11, to.Hints, to.CentralHint)
				if err != nil {
					return nil, err
				}
				rep[fmt.Sprintf("val_p%d_accuracy_hints", g)], rep[fmt.Sprintf("val_v%d_accuracy_hints", g)] = acc.P, acc.V
			}
		}
	}
	rep["seconds"] = time.Since(start).Seconds()
	return rep, nil
}
