package neural

import (
	"context"
	"errors"
	"fmt"
	"image"
	"path/filepath"
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
	// Log, when set, gets a line when an interrupted training saves, and
	// one per self-play epoch.
	Log func(format string, args ...any)
	// SelfPlay configures the selfplay stage: SelfPlayEpochs epochs
	// (default 5) of Model.SelfPlay per grid, each on fresh puzzles
	// (Options.Seed plus the epoch); after each the model is saved to
	// Out/epoch-K and scored by Bench (higher is better: a validation
	// bench, never the test images); the heads of the best-scored epoch
	// (epoch 0: the heads before) are kept, and the epochs stop after
	// Patience (default 2) without a better score; stopped by an error
	// or ctx, m keeps the best heads so far. Without Bench all the epochs
	// run and the last one's heads are kept.
	SelfPlay       SelfPlayOptions
	SelfPlayEpochs int
	Patience       int
	Bench          func(ctx context.Context, m *Model, grid, epoch int) (float64, error)
	// Fragments are the puzzles of the fragments stage (only when named):
	// for each grid the fragment heads (TrainFragments, Options.Puzzles
	// puzzles) on the pair network as it is.
	Fragments FragOptions
}

// Stages lists the valid Plan.Stage values.
var Stages = []string{"all", "pair", "heads", "finetune", "selfplay", "fragments"}

// Train runs plan on m with the images train: the pair network, then for
// each grid the heads and the fine-tuning (as plan.Stage selects; the
// self-play fine-tuning only when it is the stage named), saving
// the model to plan.Out after each stage with its provenance. Interrupted
// (ctx ended), it saves the networks with their best weights so far and
// returns ctx's error. With val images it then measures
// the pair network's and each head's accuracy on them. The report holds
// per stage its epochs, examples or states and the accuracies, with keys
// such as "pair_val_metric", "p3_examples", "finetune3_states",
// "val_pair_accuracy", "val_v3_accuracy" and "seconds".
func (m *Model) Train(ctx context.Context, train, val []image.Image, plan Plan) (map[string]any, error) {
	if !slices.Contains(Stages, plan.Stage) {
		return nil, fmt.Errorf("neural: stage %q: want all, pair, heads, finetune, selfplay or fragments", plan.Stage)
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
	stage := func(s string) bool {
		return plan.Stage == "all" && s != "selfplay" && s != "fragments" || plan.Stage == s
	}
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
		if stage("fragments") {
			st, err := m.TrainFragments(ctx, train, g, plan.Fragments, Arch{}, to)
			if err := stopped(err); err != nil {
				return nil, err
			}
			rep[fmt.Sprintf("fp%d_examples", g)], rep[fmt.Sprintf("fv%d_examples", g)] = st.PExamples, st.VExamples
			rep[fmt.Sprintf("fp%d_epochs", g)], rep[fmt.Sprintf("fv%d_epochs", g)] = st.P.Epoch, st.V.Epoch
			if err := save(); err != nil || ctx.Err() != nil {
				return rep, errors.Join(err, ctx.Err())
			}
		}
		if stage("selfplay") {
			curve, err := m.selfPlayEpochs(ctx, train, g, plan, save)
			rep[fmt.Sprintf("selfplay%d", g)] = curve
			if err := stopped(err); err != nil {
				return rep, err
			}
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
			if _, ok := m.Frag[g]; ok && plan.Stage == "fragments" {
				pa, aa, va, err := m.FragAccuracy(ctx, val, g, count, to.Seed+11, plan.Fragments)
				if err != nil {
					return nil, err
				}
				rep[fmt.Sprintf("val_fp%d_accuracy", g)], rep[fmt.Sprintf("val_fp%d_aside", g)], rep[fmt.Sprintf("val_fv%d_accuracy", g)] = pa, aa, va
				continue
			}
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

// SelfPlayEpoch is one point of the self-play curve (epoch 0: the heads
// before, scored only).
type SelfPlayEpoch struct {
	Epoch   int           `json:"epoch"`
	Score   float64       `json:"score"`
	Stats   SelfPlayStats `json:"-"`
	Games   int           `json:"games"`
	Solved  int           `json:"solved"`
	PEx     int           `json:"p_examples"`
	VEx     int           `json:"v_examples"`
	Seconds float64       `json:"seconds"`
	Kept    bool          `json:"kept"`
}

// selfPlayEpochs runs plan's self-play epochs on grid's heads with early
// stopping on plan.Bench, keeping the best heads in m, and returns the
// curve.
func (m *Model) selfPlayEpochs(ctx context.Context, train []image.Image, grid int, plan Plan, save func() error) ([]SelfPlayEpoch, error) {
	epochs := plan.SelfPlayEpochs
	if epochs <= 0 {
		epochs = 5
	}
	patience := plan.Patience
	if patience <= 0 {
		patience = 2
	}
	logf := func(format string, args ...any) {
		if plan.Log != nil {
			plan.Log(format, args...)
		}
	}
	var curve []SelfPlayEpoch
	best, bestEpoch := 0.0, 0
	var bestHeads Heads
	// Stopped early (an error, or ctx), m keeps the best heads so far.
	defer func() {
		if bestHeads.P != nil {
			m.Heads[grid] = bestHeads
		}
	}()
	if plan.Bench != nil {
		sc, err := plan.Bench(ctx, m, grid, 0)
		if err != nil {
			return curve, err
		}
		best = sc
		if bestHeads, err = cloneHeads(m.Heads[grid]); err != nil {
			return curve, err
		}
		curve = append(curve, SelfPlayEpoch{Epoch: 0, Score: sc, Kept: true})
		logf("selfplay %dx%d epoch 0: score %.4f", grid, grid, sc)
	}
	for e := 1; e <= epochs; e++ {
		start := time.Now()
		to := plan.Options
		to.Seed = plan.Options.Seed + uint64(1000*e)
		st, err := m.SelfPlay(ctx, train, grid, plan.SelfPlay, to)
		if err != nil {
			return curve, err
		}
		pt := SelfPlayEpoch{Epoch: e, Stats: st, Games: st.Games, Solved: st.Solved, PEx: st.Heads.PExamples, VEx: st.Heads.VExamples}
		if plan.Out != "" {
			if err := m.Save(filepath.Join(plan.Out, fmt.Sprintf("epoch-%d", e)), plan.Info); err != nil {
				return curve, err
			}
		}
		if plan.Bench != nil {
			if pt.Score, err = plan.Bench(ctx, m, grid, e); err != nil {
				return curve, err
			}
			if pt.Score > best {
				best, bestEpoch, pt.Kept = pt.Score, e, true
				if bestHeads, err = cloneHeads(m.Heads[grid]); err != nil {
					return curve, err
				}
			}
		}
		pt.Seconds = time.Since(start).Seconds()
		curve = append(curve, pt)
		logf("selfplay %dx%d epoch %d: %d games, %d solved, %d P and %d V examples, score %.4f (best %.4f at epoch %d), %.0f s",
			grid, grid, e, st.Games, st.Solved, pt.PEx, pt.VEx, pt.Score, best, bestEpoch, pt.Seconds)
		if plan.Bench != nil && e-bestEpoch >= patience {
			break
		}
	}
	return curve, nil
}
