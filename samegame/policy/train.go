package policy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"tessera/nn"
	"tessera/samegame"
)

// Dataset is one set file of solved boards (written by "tessera samegame
// dataset" or "bench -o"), or of labelled positions for an afterstate
// network ("dataset -labels"): its entries and the name the network's
// provenance records for it.
type Dataset struct {
	Name    string
	Entries []samegame.Entry
}

// TrainOptions configure Train. The zero value trains a new network of
// DefaultArch's layers, without a value head, with nn.TrainOptions'
// defaults.
type TrainOptions struct {
	// Geometry is the boards' geometry (zero: DustGeometry).
	Geometry Geometry
	// Arch is the architecture of a new network (ignored with Init).
	Arch Arch
	// Init, when set, is the network to start from; it is trained in
	// place (Load returns a fresh one each time). With After and a cell
	// policy, a new afterstate network starts from its convolution and
	// hidden layers instead. InitName names it in the provenance.
	Init     *Policy
	InitName string
	// After, when at least 2, trains an afterstate network on labelled
	// positions, After children per position (Geometry.AfterExamples);
	// 0 trains a cell policy on the solutions (Geometry.Examples).
	After int
	// All also trains on solutions not proven optimal.
	All bool
	// TrainOptions are the training loop's: epochs, steps, batch size,
	// learning rate, validation share, patience, seed (which also draws a
	// new network's weights and the afterstate examples), progress. Train
	// sets Augment, Metric, Loss and Group.
	nn.TrainOptions
}

// TrainStats are the training loop's statistics and the data trained on.
type TrainStats struct {
	nn.Stats
	// Boards counts the boards (or, with After, the labelled positions)
	// and Examples the examples they gave.
	Boards, Examples int
}

// Train fits a network to the data (the source's design for a cell
// policy: every position along a solution is one example whose target
// marks the clicked group, binary cross-entropy, Adam; each batch sees a
// random recolouring and mirror image, Geometry.Augment) and returns it
// with its provenance in Info: "data", "training", "result", "arch", and
// "init" when it started from another network. Stopped by ctx, it returns
// the network with the best weights so far, its provenance and the
// context's error (wrapped).
func Train(ctx context.Context, data []Dataset, opts TrainOptions) (*Policy, TrainStats, error) {
	geo := cmp.Or(opts.Geometry, DustGeometry)
	after := opts.After > 0
	if opts.After == 1 || opts.After < 0 {
		return nil, TrainStats{}, errors.New("policy: an afterstate network needs at least 2 children per position")
	}
	pol, err := initial(geo, opts)
	if err != nil {
		return nil, TrainStats{}, err
	}
	var d nn.Data
	boards := 0
	names := make([]string, len(data))
	for i, ds := range data {
		names[i] = ds.Name
		var fd nn.Data
		var k int
		if after {
			fd, k, err = geo.AfterExamples(ds.Entries, opts.After, opts.Seed)
		} else {
			fd, k, err = geo.Examples(ds.Entries, !opts.All, pol.HasValue())
		}
		if err != nil {
			return nil, TrainStats{}, fmt.Errorf("%s: %w", ds.Name, err)
		}
		d.X, d.Y, d.N = append(d.X, fd.X...), append(d.Y, fd.Y...), d.N+fd.N
		boards += k
	}
	if d.N < 2*max(opts.After, 1) {
		return nil, TrainStats{}, errors.New("policy: fewer than 2 examples to train on (an afterstate network needs positions with \"good\" lines)")
	}
	to := opts.TrainOptions
	to.Augment, to.Metric, to.Loss, to.Group = geo.Augment, geo.Accuracy, nn.LossBCE, 0
	if after {
		to.Group, to.Loss, to.Metric = opts.After, nn.LossSoftmaxCE, nn.GroupAccuracy
	}
	st, err := pol.net.Train(ctx, d, to)
	if err != nil && ctx.Err() == nil {
		return nil, TrainStats{}, err
	}
	if opts.Init != nil && pol.Info != nil {
		pol.Info["init"] = opts.InitName + ", trained on " + pol.Info["data"] + " for " + pol.Info["training"]
	} else {
		pol.Info = map[string]string{}
	}
	files := strings.Join(names, ",")
	dataInfo := fmt.Sprintf("%d boards, %d positions from %s", boards, d.N, files)
	if after {
		dataInfo = fmt.Sprintf("%d labelled positions, %d children each (afterstate), from %s", boards, opts.After, files)
	}
	spec := pol.net.Spec()
	for k, v := range map[string]string{
		"data": dataInfo,
		"training": fmt.Sprintf("%d epochs (best %d), %d steps of %d, lr %g, seed %d", st.Epoch, st.BestEpoch, st.Step,
			cmp.Or(opts.BatchSize, 64), cmp.Or(opts.LearningRate, 1e-3), opts.Seed),
		"result": fmt.Sprintf("validation loss %.4f, accuracy %.3f", st.ValLoss, st.ValMetric),
		"arch":   fmt.Sprintf("conv %v, hidden %v, %d weights", spec.Conv, spec.Hidden, pol.net.Params()),
	} {
		pol.Info[k] = v
	}
	if err != nil {
		err = fmt.Errorf("policy: training stopped: %w", err)
	}
	return pol, TrainStats{Stats: st, Boards: boards, Examples: d.N}, err
}

// initial is the network Train starts from.
func initial(geo Geometry, opts TrainOptions) (*Policy, error) {
	after := opts.After > 0
	pol := opts.Init
	switch {
	case pol == nil:
		var err error
		if pol, err = New(geo, Arch{Conv: opts.Arch.Conv, Hidden: opts.Arch.Hidden, Value: opts.Arch.Value && !after, After: after}, opts.Seed); err != nil {
			return nil, err
		}
	case after && !pol.IsAfterstate():
		// A cell policy's trunk under a new afterstate output.
		sp := pol.net.Spec()
		p, err := New(pol.Geometry(), Arch{Conv: sp.Conv, Hidden: sp.Hidden, After: true}, opts.Seed)
		if err != nil {
			return nil, err
		}
		p.Info = pol.Info
		if _, err := p.net.CopyLayers(pol.net); err != nil {
			return nil, err
		}
		pol = p
	}
	if pol.Geometry() != geo {
		return nil, fmt.Errorf("policy: %s is a network for %+v boards, not %+v", opts.InitName, pol.Geometry(), geo)
	}
	if pol.IsAfterstate() != after {
		return nil, fmt.Errorf("policy: %s is an afterstate network: train it with After", opts.InitName)
	}
	return pol, nil
}
