package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/progress"
	"tessera/nn"
	"tessera/samegame"
	"tessera/samegame/policy"
)

// SameGameRandom are random boards of the cluster-clearing games, as
// `tessera samegame generate` and `dataset` draw them: plain data, a field
// per option, each named by its json tag (its flag: catalog.BindFlags) and
// documented by its help tag.
type SameGameRandom struct {
	Rules  string `json:"rules" help:"rules: standard or dust"`
	Size   string `json:"size" help:"board size COLSxROWS"`
	Colors int    `json:"colors" help:"number of colours (1 to 10)"`
	N      int    `json:"n" help:"number of boards"`
}

// Parse checks the settings (a mistake is a UsageError) and returns the
// rules and the size, COLS x ROWS.
func (r SameGameRandom) Parse() (rules samegame.Rules, w, h int, err error) {
	if rules, err = samegame.ParseRules(r.Rules); err != nil {
		return 0, 0, 0, Usagef("%v", err)
	}
	if w, h, err = ParseSameGameSize(r.Size); err != nil {
		return 0, 0, 0, err
	}
	if r.Colors < 1 || r.Colors > samegame.MaxColors || r.N < 1 || r.N > 1000000 {
		return 0, 0, 0, Usagef("-colors (1 to %d) or -n (1 to 1,000,000) out of range", samegame.MaxColors)
	}
	return rules, w, h, nil
}

// ParseSameGameSize reads a board size COLSxROWS, each from 1 to
// samegame.MaxSize (a mistake is a UsageError).
func ParseSameGameSize(s string) (int, int, error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 || w > samegame.MaxSize || h > samegame.MaxSize {
		return 0, 0, Usagef("bad size %q: want COLSxROWS, each from 1 to %d", s, samegame.MaxSize)
	}
	return w, h, nil
}

// SameGameData is `tessera samegame dataset`: N random boards solved for
// training (SameGameDataset), or with Labels their positions labelled
// with every good click (SameGameLabels), written to Out. Plain data as
// SameGameRandom.
type SameGameData struct {
	SameGameRandom
	Solver  string `json:"solver" help:"exact, dfs or beam"`
	Width   int    `json:"width" help:"beam width of -solver beam"`
	Workers int    `json:"workers" help:"boards solved at once"`
	Prefix  int    `json:"prefix" help:"play 0 to this many random clicks on each board before solving (mid-game positions, cheaper to solve)"`
	Labels  int    `json:"labels" help:"with -solver beam: write up to this many positions per depth on the beam's shortest lines, each with all its good clicks (see above)"`
	// Seed draws the boards, Timeout bounds each board's solve, Out is
	// the file written (required).
	Seed    uint64        `json:"seed" flag:"-"`
	Timeout time.Duration `json:"timeout_ns" flag:"-"`
	Out     string        `json:"out" flag:"-"`
}

// DefaultSameGameData is a SameGameData with the defaults of every option.
func DefaultSameGameData() SameGameData {
	return SameGameData{SameGameRandom: SameGameRandom{Rules: "dust", Size: "8x6", Colors: 5, N: 100}, Solver: "exact", Width: 2000, Workers: 2, Seed: 1}
}

// Check checks the settings; a mistake is a UsageError.
func (d *SameGameData) Check() error {
	rules, _, _, err := d.Parse()
	if err != nil {
		return err
	}
	if d.Workers < 1 || d.Prefix < 0 || d.Labels < 0 {
		return Usagef("-workers (at least 1), -prefix or -labels (not negative) out of range")
	}
	if d.Out == "" {
		return Usagef("-o FILE is required")
	}
	switch algo := strings.ToLower(d.Solver); {
	case (algo != "exact" && algo != "dfs" && algo != "beam") || d.Width < 1:
		return Usagef("-solver %q: want exact, dfs or beam (with a positive -width)", d.Solver)
	case algo == "exact" && rules != samegame.Dust:
		return Usagef("-solver exact needs dust rules")
	case d.Labels > 0 && (algo != "beam" || rules != samegame.Dust):
		return Usagef("-labels needs -solver beam and dust rules")
	}
	return nil
}

// Run solves the boards (checked) here or as jobs on remote's workers
// (nil: here), counting them on p, writes them to Out and prints a line
// that reports it to out.
func (d *SameGameData) Run(ctx context.Context, remote Remote, p *progress.Reporter, out io.Writer) error {
	count := p.Counter("boards", d.N)
	done := func() { count.Add(1) }
	rules, w, h, _ := d.Parse()
	entries := SameGameBoards(d.N, d.Seed, w, h, d.Colors, rules, d.Prefix)
	var text, msg string
	if d.Labels > 0 {
		var boards, total, skipped int
		var err error
		if text, boards, total, skipped, err = SameGameLabels(ctx, remote, entries, d.Width, d.Labels, d.Workers, d.Timeout, done); err != nil {
			return err
		}
		msg = fmt.Sprintf("%d boards, %d labelled positions, written to %s", boards, total, d.Out)
		if skipped > 0 {
			msg += fmt.Sprintf(" (%d boards left out: over -timeout %v)", skipped, d.Timeout)
		}
	} else {
		o := catalog.SameGameOptions{Seed: d.Seed, Width: d.Width}
		var proven int
		var err error
		if text, proven, err = SameGameDataset(ctx, remote, entries, rules, strings.ToLower(d.Solver), o, d.Timeout, d.Workers, done); err != nil {
			return err
		}
		msg = fmt.Sprintf("%d boards, %d solved optimally, written to %s", d.N, proven, d.Out)
	}
	p.Done()
	if err := WriteFileAtomic(d.Out, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out, msg)
	return err
}

// SameGameTrain is `tessera samegame train`: a policy network
// (policy.Train) trained on the solutions of the set files Data and
// written to Out. Plain data as SameGameRandom.
type SameGameTrain struct {
	Data     string  `json:"data" help:"training files, comma-separated (required)"`
	Conv     string  `json:"conv" help:"3x3 convolution channels, comma-separated (empty: none)"`
	Hidden   string  `json:"hidden" help:"dense layer widths, comma-separated"`
	Epochs   int     `json:"epochs" help:"most epochs"`
	Steps    int     `json:"steps" help:"stop after this many batches (0: no limit)"`
	Batch    int     `json:"batch" help:"batch size"`
	LR       float64 `json:"lr" help:"Adam learning rate"`
	Val      float64 `json:"val" help:"fraction of examples held out for validation (0: none, and no early stopping)"`
	Patience int     `json:"patience" help:"epochs without a better validation loss before stopping"`
	All      bool    `json:"all" help:"also train on solutions not proven optimal"`
	Value    bool    `json:"value" help:"add a value head (clicks left, for -algo nn-value and nn-mcts)"`
	Init     string  `json:"init" help:"start from this network file (its architecture; -conv and -hidden are ignored); with -after and a cell policy, from its convolution and hidden layers"`
	After    int     `json:"after" help:"train an afterstate network (one output rating the board a click leaves; greedy play clicks the best-rated) on -labels data, K children per position (0: the cell policy)"`
	// Seed draws the network and the batches, Out is the network file
	// written (required), Timeout the budget (0: none) whose end saves
	// the network as it is.
	Seed    uint64        `json:"seed" flag:"-"`
	Out     string        `json:"out" flag:"-"`
	Timeout time.Duration `json:"timeout_ns" flag:"-"`
}

// DefaultSameGameTrain is a SameGameTrain with the defaults of every option.
func DefaultSameGameTrain() SameGameTrain {
	return SameGameTrain{Conv: "32,32", Hidden: "512", Epochs: 30, Batch: 64, LR: 1e-3, Val: 0.1, Patience: 4, Value: true, Seed: 1}
}

// options checks the settings (a mistake is a UsageError) and returns the
// training's options without Init and Progress.
func (t *SameGameTrain) options() (policy.TrainOptions, error) {
	var o policy.TrainOptions
	if t.Data == "" || t.Out == "" {
		return o, Usagef("-data FILE and -o MODEL are required")
	}
	conv, err := parseWidths(t.Conv, "-conv")
	if err != nil {
		return o, err
	}
	hidden, err := parseWidths(t.Hidden, "-hidden")
	if err != nil {
		return o, err
	}
	if t.Epochs < 1 || t.Batch < 1 || t.LR <= 0 || t.Val >= 1 || t.Steps < 0 {
		return o, Usagef("-epochs, -batch and -lr must be positive, -val below 1")
	}
	if t.After == 1 || t.After < 0 {
		return o, Usagef("-after K needs K of at least 2 children per position")
	}
	return policy.TrainOptions{Arch: policy.Arch{Conv: conv, Hidden: hidden, Value: t.Value}, After: t.After, All: t.All,
		TrainOptions: nn.TrainOptions{Epochs: t.Epochs, MaxSteps: t.Steps, BatchSize: t.Batch, LearningRate: t.LR,
			Patience: t.Patience, Seed: t.Seed, Validation: t.Val, NoValidation: t.Val == 0}}, nil
}

// parseWidths reads a comma-separated list of layer widths ("" is none).
func parseWidths(s, name string) ([]int, error) {
	var ws []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < 1 || v > 1<<16 {
			return nil, Usagef("bad %s width %q", name, f)
		}
		ws = append(ws, v)
	}
	return ws, nil
}

// Run checks the settings (a mistake is a UsageError), reads the data
// (stdin for "-"), trains the network with progress on p, writes it to
// Out and prints a summary line to w.
func (t *SameGameTrain) Run(ctx context.Context, stdin io.Reader, w io.Writer, p *progress.Reporter) error {
	opts, err := t.options()
	if err != nil {
		return err
	}
	opts.Progress = func(s nn.Stats) { TrainProgress(p, "", s) }
	if t.Init != "" {
		if opts.Init, err = policy.Load(t.Init); err != nil {
			return err
		}
		if opts.InitName = t.Init; opts.Init.IsAfterstate() && t.After == 0 {
			return Usagef("%s is an afterstate network: train it with -after K", t.Init)
		}
	}
	var sets []policy.Dataset
	for f := range strings.SplitSeq(t.Data, ",") {
		entries, _, err := ReadSameGameSet(stdin, f, "dust")
		if err != nil {
			return err
		}
		sets = append(sets, policy.Dataset{Name: f, Entries: entries})
	}
	ctx, cancel := catalog.WithTimeout(ctx, t.Timeout)
	defer cancel()
	pol, st, err := policy.Train(ctx, sets, opts)
	p.Done()
	if err != nil && !(errors.Is(err, context.DeadlineExceeded) && t.Timeout > 0) {
		return err
	}
	if err := pol.Save(t.Out); err != nil {
		return err
	}
	what := fmt.Sprintf("on %d positions of %d boards", st.Examples, st.Boards)
	if t.After > 0 {
		what = fmt.Sprintf("an afterstate network on %d positions (%d children each)", st.Boards, t.After)
	}
	fmt.Fprintf(w, "trained %s: %d epochs (best %d), %d steps, %.0f examples/s; validation loss %.4f, accuracy %.3f; %d weights written to %s\n",
		what, st.Epoch, st.BestEpoch, st.Step, st.ExamplesSec, st.ValLoss, st.ValMetric, pol.Net().Params(), t.Out)
	return nil
}
