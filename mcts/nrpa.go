package mcts

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
)

// NRPAOptions configure Nested Rollout Policy Adaptation.
type NRPAOptions struct {
	Budget
	// Level is the nesting level; zero means 3. Level 0 is one playout.
	Level int
	// Iterations is the number of iterations of every level above 0 (N in
	// Rosin's paper); zero means 100.
	Iterations int
	// Alpha is the learning rate of the policy adaptation; zero means 1.
	Alpha float64
	// Restart runs the search again with a fresh policy until the context
	// or the budget ends, keeping the best sequence (the usual way to spend
	// a time budget).
	Restart bool
	// Stabilize is the number of playouts a level-1 iteration makes before
	// its policy adapts toward the best sequence so far (Cazenave, Sevestre
	// and Toulemont, "Stabilized Nested Rollout Policy Adaptation", 2021);
	// zero or one is plain NRPA. A level-l search then makes
	// Stabilize*Iterations^l playouts.
	Stabilize int
	// Portfolio, above 1 and with Level 2 or more, starts that many
	// level-Level searches side by side, each with its own policy, and
	// races them (successive halving): each member runs Round iterations
	// in turn, then the worse half (by best score; ties keep the earlier
	// member) is dropped, until one is left, which runs on to its
	// Iterations. NRPA's top level settles early on one line; the race
	// spends the first iterations on several.
	Portfolio int
	// Round is the iterations of a member between two cuts of the
	// portfolio; zero means 5.
	Round int
	// Repeats, above 0, limits the repetitions of the best sequence
	// (Cazenave, "Generalized Nested Rollout Policy Adaptation with
	// Limited Repetitions", 2024): a level that gets its best sequence back
	// from the level below that many times (the same score and the same
	// moves; counted since the best last changed) stops and returns it,
	// instead of spending the rest of its Iterations on a policy that has
	// settled. At the top level with Restart, that starts the next run; a
	// portfolio member that settles runs no more. Zero: no limit, Rosin's
	// NRPA.
	Repeats int
	// Prior, with a game that implements Prior, makes the search a
	// Generalized NRPA (Cazenave, "Generalized Nested Rollout Policy
	// Adaptation", 2020): a playout picks each move with probability
	// proportional to exp(weight) times the game's Prior of the move (the
	// exponential of GNRPA's bias), and adaptation uses those
	// probabilities. Off, or with a Prior of 1 for every move, it is NRPA,
	// playout for playout.
	Prior bool
	// Cache, with a game that implements Keyed, is the number of states
	// (rounded up to a power of two) whose legal moves and codes the
	// playouts keep, so that a state reached again, by another order of
	// the same moves or another playout, is not searched for its moves
	// again; zero means 1<<12, negative turns it off. The playouts are
	// the same, draw for draw; only their speed changes. Memory: at most
	// Cache lists of moves and codes.
	Cache int
}

// Keyed is a Coded game that names its states for NRPA's cache of move
// lists (NRPAOptions.Cache): two states with the same Key have the same
// legal moves, in the same order, with the same codes. Key should be a
// well-mixed 128-bit hash of what Moves and Code read.
type Keyed interface {
	Key() [2]uint64
}

// Prior is a Coded game whose moves have a prior weight for NRPA's
// playouts (NRPAOptions.Prior): a positive number, read in the state the
// move is played from; 1 is neutral.
type Prior[M any] interface {
	Prior(m M) float64
}

// NRPA runs Nested Rollout Policy Adaptation (Rosin, "Nested Rollout
// Policy Adaptation for Monte Carlo Tree Search", IJCAI 2011) from root.
//
// A policy gives every move code a weight; a playout picks each move with
// probability proportional to exp(weight). A level-l search runs
// Iterations searches of level l-1, each with a copy of its policy, keeps
// the best sequence found (ties go to the latest) and after every
// iteration adapts its policy toward that sequence: along it, the weight of
// the move played rises by Alpha and every legal move's weight falls by
// Alpha times its probability. A level-l search makes Iterations^l
// playouts.
//
// Implementation: the policy is an open-addressing hash table from code to
// weight and exp(weight), so playouts call exp only in adaptation; a
// playout records the codes of every legal move along its way, so
// adaptation never replays the game; level l-1 receives a copy of the
// level-l table (a flat copy). Apart from growing its buffers, a search
// allocates nothing.
//
// It returns the best sequence found; root is not changed. Stopped early by
// the context or the budget, it returns the best sequence so far with an
// error wrapping the context's error or ErrBudget.
func NRPA[G Coded[G, M], M any](ctx context.Context, root G, opts NRPAOptions) (Result[M], error) {
	return NRPARoots(ctx, []G{root}, opts)
}

// NRPARoots is NRPA from several roots: versions of one game that differ
// in what Moves offers (a move list filtered in different ways), so that
// a sequence found from any of them is a sequence of the game. At level 2
// or more the search is a portfolio (NRPAOptions.Portfolio, raised to
// len(roots) when smaller) whose member i searches from
// roots[i%len(roots)], and the race decides between them; at level 1 the
// r-th run of a restart searches from roots[r%len(roots)]. One root is
// NRPA, playout for playout. roots must not be empty; none is changed.
func NRPARoots[G Coded[G, M], M any](ctx context.Context, roots []G, opts NRPAOptions) (Result[M], error) {
	if opts.Level == 0 {
		opts.Level = 3
	}
	if opts.Iterations == 0 {
		opts.Iterations = 100
	}
	if opts.Alpha == 0 {
		opts.Alpha = 1
	}
	if opts.Level >= 2 && opts.Portfolio < len(roots) && len(roots) > 1 {
		opts.Portfolio = len(roots)
	}
	s := &nrpa[G, M]{run: newRun[M](ctx, opts.Budget, 0x6e727061), opts: opts, roots: roots, root: roots[0], state: roots[0].Clone()}
	if opts.Prior {
		s.prior, _ = any(s.state).(Prior[M])
	}
	s.initCache()
	s.pols = make([]policy, opts.Level+1)
	s.bests = make([]record[M], opts.Level+1)
	for r := 0; ; r++ {
		s.stats.Iterations++
		if opts.Portfolio > 1 && opts.Level >= 2 {
			s.portfolio()
		} else {
			s.setRoot(roots[r%len(roots)])
			s.pols[opts.Level].reset()
			s.level(opts.Level)
		}
		if !opts.Restart || s.stopped() {
			break
		}
	}
	return s.result()
}

type nrpa[G Coded[G, M], M any] struct {
	*run[M]
	opts    NRPAOptions
	roots   []G // NRPARoots's roots
	root    G   // the root of the search running now
	state   G
	prior   Prior[M]    // s.state's priors, or nil (NRPAOptions.Prior)
	pols    []policy    // pols[l]: the policy of the level-l search (pols[0] unused)
	bests   []record[M] // bests[l]: the best sequence of the level-l search
	cur     record[M]   // the last playout
	legal   []M         // the legal moves of s.cur's steps, in the order of its codes
	keyed   Keyed       // s.state as a Keyed game, or nil: no cache
	cache   []cacheSlot[M]
	trail   []G  // trail[t]: the state before step t of s.cur
	trailOK bool // s.cur, s.legal and s.trail hold a playout from s.root
	weights []float64
	deltas  []float64
	at      []int32 // adapt's slot of each code
}

// record is a sequence with what adaptation needs: the codes of the legal
// moves at every step (codes[start[t]:start[t+1]]), their priors when the
// search has them (priors[i] for codes[i]) and the index of the one played
// (pick[t]).
type record[M any] struct {
	score  float64
	moves  []M
	codes  []uint64
	priors []float64
	start  []int32
	pick   []int32
}

func (r *record[M]) reset() {
	r.score = math.Inf(-1)
	r.moves, r.codes, r.priors, r.pick = r.moves[:0], r.codes[:0], r.priors[:0], r.pick[:0]
	r.start = append(r.start[:0], 0)
}

func (r *record[M]) copyFrom(q *record[M]) {
	r.score = q.score
	r.moves = append(r.moves[:0], q.moves...)
	r.codes = append(r.codes[:0], q.codes...)
	r.priors = append(r.priors[:0], q.priors...)
	r.start = append(r.start[:0], q.start...)
	r.pick = append(r.pick[:0], q.pick...)
}

// level runs a level-l search and returns its best record.
func (s *nrpa[G, M]) level(l int) *record[M] {
	s.stats.Nodes++
	if l == 0 {
		s.playout(&s.pols[1])
		return &s.cur
	}
	best := &s.bests[l]
	best.reset()
	reps := 1
	if l == 1 && s.opts.Stabilize > 1 {
		reps = s.opts.Stabilize
	}
	same := 0 // the times best came back since it last changed
	for range s.opts.Iterations {
		if l > 1 {
			s.pols[l-1].copyFrom(&s.pols[l])
		}
		for range reps {
			r := s.level(l - 1)
			s.keep(best, r, &same)
			if s.err != nil {
				break
			}
		}
		if s.err != nil || s.settled(same) {
			break
		}
		s.adapt(&s.pols[l], best)
	}
	return best
}

// keep makes r the best sequence when it scores at least as well (ties go
// to the latest), counting in same the times best came back since it last
// changed (NRPAOptions.Repeats).
func (s *nrpa[G, M]) keep(best, r *record[M], same *int) {
	if r.score < best.score {
		return
	}
	if s.opts.Repeats > 0 {
		if sameLine(r, best) {
			*same++
		} else {
			*same = 0
		}
	}
	best.copyFrom(r)
}

// settled reports whether a level has found its best sequence again
// NRPAOptions.Repeats times.
func (s *nrpa[G, M]) settled(same int) bool {
	return s.opts.Repeats > 0 && same >= s.opts.Repeats
}

// sameLine reports whether r and q are one sequence: the same score and
// the same move codes played.
func sameLine[M any](r, q *record[M]) bool {
	if r.score != q.score || len(r.pick) != len(q.pick) {
		return false
	}
	for t, k := range r.pick {
		if r.codes[r.start[t]+k] != q.codes[q.start[t]+q.pick[t]] {
			return false
		}
	}
	return true
}

// member is one search of a portfolio: its top-level policy, best
// sequence and iterations done.
type member[G, M any] struct {
	root G
	pol  policy
	best record[M]
	iter int
	same int // the times best came back since it last changed
}

// portfolio runs opts.Portfolio level-L searches and races them
// (NRPAOptions.Portfolio).
func (s *nrpa[G, M]) portfolio() {
	round := s.opts.Round
	if round <= 0 {
		round = 5
	}
	alive := make([]*member[G, M], s.opts.Portfolio)
	for i := range alive {
		alive[i] = &member[G, M]{root: s.roots[i%len(s.roots)]}
		alive[i].best.reset()
	}
	for len(alive) > 1 {
		for _, m := range alive {
			if !s.iterate(m, round) {
				return
			}
		}
		slices.SortStableFunc(alive, func(a, b *member[G, M]) int { return cmp.Compare(b.best.score, a.best.score) })
		alive = alive[:(len(alive)+1)/2]
	}
	s.iterate(alive[0], s.opts.Iterations)
}

// iterate runs up to k top-level iterations of m (no more than
// opts.Iterations in all) and reports whether the search may go on.
func (s *nrpa[G, M]) iterate(m *member[G, M], k int) bool {
	l := s.opts.Level
	s.setRoot(m.root)
	for ; k > 0 && m.iter < s.opts.Iterations; k-- {
		s.stats.Nodes++
		s.pols[l-1].copyFrom(&m.pol)
		r := s.level(l - 1)
		s.keep(&m.best, r, &m.same)
		if s.err != nil {
			return false
		}
		m.iter++
		if s.settled(m.same) {
			m.iter = s.opts.Iterations // this member's search is over
			break
		}
		s.adapt(&m.pol, &m.best)
	}
	return true
}

// playout plays a game from the root with the policy pol into s.cur.
//
// The last playout stays as a trail: s.cur's codes and priors, the legal
// moves of every step (s.legal) and the state before every step
// (s.trail). While the new playout draws the moves the last one played,
// it walks the trail: the same weights, the same draws, the same game,
// for the policy's lookups alone instead of a move generation and a move
// a step. A converging NRPA repeats long prefixes, and its playouts are
// those of the search without the trail, draw for draw.
func (s *nrpa[G, M]) playout(pol *policy) {
	r := &s.cur
	g := s.state
	t := 0
	if s.trailOK {
		left := false
		for ; t < len(r.pick); t++ {
			lo, hi := int(r.start[t]), int(r.start[t+1])
			k := s.draw(pol, r, lo, hi)
			if k == int(r.pick[t]) {
				continue
			}
			// Leave the trail: play move k from the state before step t.
			g.CopyFrom(s.trail[t])
			r.moves, r.pick, r.start = r.moves[:t], r.pick[:t], r.start[:t+2]
			r.codes, s.legal = r.codes[:hi], s.legal[:hi]
			if len(r.priors) > 0 {
				r.priors = r.priors[:hi]
			}
			s.step(t, k, s.legal[lo+k])
			t++
			left = true
			break
		}
		if !left { // the last playout again
			s.run.playout()
			s.offer(r.score, r.moves, nil)
			return
		}
	} else {
		r.reset()
		s.legal = s.legal[:0]
		g.CopyFrom(s.root)
		s.save(0)
	}
	for {
		lo := len(s.legal)
		s.moves(r)
		if len(s.legal) == lo {
			break
		}
		if s.prior != nil {
			for _, m := range s.legal[lo:] {
				r.priors = append(r.priors, s.prior.Prior(m))
			}
		}
		r.start = append(r.start, int32(len(r.codes)))
		k := s.draw(pol, r, lo, len(r.codes))
		s.step(t, k, s.legal[lo+k])
		t++
	}
	r.score = g.Score()
	s.trailOK = !noTrail
	s.run.playout()
	s.offer(r.score, r.moves, nil)
}

// noTrail turns the trail off (for the tests that check it changes
// nothing).
var noTrail = false

// cacheSlot is one state of the cache of move lists: its key, its legal
// moves and their codes.
type cacheSlot[M any] struct {
	key   [2]uint64
	moves []M
	codes []uint64
}

// initCache sets up the cache of move lists when the game is Keyed.
func (s *nrpa[G, M]) initCache() {
	n := s.opts.Cache
	if n < 0 {
		return
	}
	if n == 0 {
		n = 1 << 12
	}
	k, ok := any(s.state).(Keyed)
	if !ok {
		return
	}
	s.keyed = k
	s.cache = make([]cacheSlot[M], 1<<bits.Len(uint(n-1)))
}

// moves appends the legal moves of s.state to s.legal and their codes to
// r.codes, from the cache when the state is in it.
func (s *nrpa[G, M]) moves(r *record[M]) {
	g := s.state
	var c *cacheSlot[M]
	if s.keyed != nil {
		key := s.keyed.Key()
		key[1] |= 1 // an empty slot's key is zero
		c = &s.cache[int(key[0]>>32)&(len(s.cache)-1)]
		if c.key == key {
			s.legal = append(s.legal, c.moves...)
			r.codes = append(r.codes, c.codes...)
			return
		}
		c.key = key
	}
	lo, clo := len(s.legal), len(r.codes)
	s.legal = g.Moves(s.legal)
	for _, m := range s.legal[lo:] {
		r.codes = append(r.codes, g.Code(m))
	}
	if c != nil {
		c.moves = append(c.moves[:0], s.legal[lo:]...)
		c.codes = append(c.codes[:0], r.codes[clo:]...)
	}
}

// draw picks one of the moves whose codes are s.cur.codes[lo:hi], each
// with probability proportional to exp(its weight) (times its prior).
func (s *nrpa[G, M]) draw(pol *policy, r *record[M], lo, hi int) int {
	n := hi - lo
	if cap(s.weights) < n {
		s.weights = make([]float64, 2*n)
	}
	w := s.weights[:n]
	sum := 0.0
	for i, c := range r.codes[lo:hi] {
		e := pol.exp(c)
		if s.prior != nil {
			e *= r.priors[lo+i]
		}
		w[i] = e
		sum += e
	}
	k := n - 1
	x := s.rng.Float64() * sum
	for i, e := range w {
		x -= e
		if x < 0 {
			k = i
			break
		}
	}
	return k
}

// step plays m, the k-th legal move of step t, into s.cur and keeps the
// state after it as the trail's state before step t+1.
func (s *nrpa[G, M]) step(t, k int, m M) {
	s.state.Play(m)
	s.cur.moves = append(s.cur.moves, m)
	s.cur.pick = append(s.cur.pick, int32(k))
	s.save(t + 1)
}

// save keeps the state as the trail's state before step t.
func (s *nrpa[G, M]) save(t int) {
	if t < len(s.trail) {
		s.trail[t].CopyFrom(s.state)
		return
	}
	s.trail = append(s.trail, s.state.Clone())
}

// setRoot makes g the root of the playouts to come; the trail, which
// starts from the last root, is dropped.
func (s *nrpa[G, M]) setRoot(g G) {
	s.root = g
	s.trailOK = false
}

// adapt moves pol toward the sequence r (Rosin's Adapt): the probabilities
// are those of pol before the update.
func (s *nrpa[G, M]) adapt(pol *policy, r *record[M]) {
	alpha := s.opts.Alpha
	n := len(r.codes)
	if cap(s.deltas) < n {
		s.deltas = make([]float64, 2*n)
		s.at = make([]int32, 2*n)
	}
	d, at := s.deltas[:n], s.at[:n]
	// Each code's slot, found once: absent codes enter with weight 0
	// (exp 1, as exp gives them). A grow moves the slots: start again.
	for {
		grows := pol.grows
		for i, c := range r.codes {
			at[i] = pol.slotOf(c)
		}
		if pol.grows == grows {
			break
		}
	}
	for t := range r.pick {
		lo, hi := r.start[t], r.start[t+1]
		sum := 0.0
		for i := lo; i < hi; i++ {
			e := pol.slots[at[i]].e
			if len(r.priors) > 0 {
				e *= r.priors[i]
			}
			d[i] = e
			sum += e
		}
		f := -alpha / sum
		for i := lo; i < hi; i++ {
			d[i] *= f
		}
		d[lo+r.pick[t]] += alpha
	}
	// The weights move in the order of the codes, as one add each would
	// move them; a code legal at many steps needs its exp once, at the end.
	dirty := pol.dirty[:0]
	for i, k := range at {
		sl := &pol.slots[k]
		sl.w += d[i]
		if sl.e >= 0 {
			sl.e = -1 // exp is never negative: marks the slot
			dirty = append(dirty, k)
		}
	}
	for _, k := range dirty {
		sl := &pol.slots[k]
		sl.e = math.Exp(sl.w)
	}
	pol.dirty = dirty
}

// policy maps move codes to weights: an open-addressing hash table with
// linear probing, one entry (code, weight, exp(weight)) per slot so that a
// lookup touches one cache line. Absent codes weigh 0. Code 0 is stored as
// zeroCode.
type policy struct {
	slots []policySlot
	n     int
	mask  int
	grows int     // how many times the table grew (slotOf's callers look again)
	dirty []int32 // adapt's slots whose exp is to be computed
}

type policySlot struct {
	key  uint64
	w, e float64 // weight and exp(weight)
}

const zeroCode = 0x9e3779b97f4a7c15

func slot(c uint64, mask int) int { return int((c*0x9e3779b97f4a7c15)>>32) & mask }

func (p *policy) reset() {
	clear(p.slots)
	p.n = 0
}

// exp returns exp(weight of c).
func (p *policy) exp(c uint64) float64 {
	if p.n == 0 {
		return 1
	}
	if c == 0 {
		c = zeroCode
	}
	for i := slot(c, p.mask); ; i = (i + 1) & p.mask {
		switch s := &p.slots[i]; s.key {
		case c:
			return s.e
		case 0:
			return 1
		}
	}
}

// add adds delta to the weight of c.
func (p *policy) add(c uint64, delta float64) {
	s := &p.slots[p.slotOf(c)]
	s.w += delta
	s.e = math.Exp(s.w)
}

// slotOf returns the slot of c, entering it with weight 0 when absent.
func (p *policy) slotOf(c uint64) int32 {
	if c == 0 {
		c = zeroCode
	}
	if 2*(p.n+1) > len(p.slots) {
		p.grow()
	}
	i := slot(c, p.mask)
	for p.slots[i].key != c && p.slots[i].key != 0 {
		i = (i + 1) & p.mask
	}
	if p.slots[i].key == 0 {
		p.slots[i] = policySlot{key: c, e: 1}
		p.n++
	}
	return int32(i)
}

func (p *policy) grow() {
	p.grows++
	old := p.slots
	p.slots = make([]policySlot, max(1024, 2*len(old)))
	p.mask = len(p.slots) - 1
	for _, s := range old {
		if s.key != 0 {
			j := slot(s.key, p.mask)
			for p.slots[j].key != 0 {
				j = (j + 1) & p.mask
			}
			p.slots[j] = s
		}
	}
}

// copyFrom makes p a copy of q, reusing p's array when it is large enough.
func (p *policy) copyFrom(q *policy) {
	if cap(p.slots) >= len(q.slots) {
		p.slots = p.slots[:len(q.slots)]
	} else {
		p.slots = make([]policySlot, len(q.slots))
	}
	copy(p.slots, q.slots)
	p.n, p.mask = q.n, q.mask
}
