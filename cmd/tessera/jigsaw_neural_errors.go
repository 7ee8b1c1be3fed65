package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"tessera/jigsaw/neural"
)

// errorStats gathers a gap bench's error distribution (neural.ErrorStats)
// from the puzzles solved in this process: the patches misplaced by the
// wrong answers, and V's verdicts on reassemblies with k patches
// misplaced. Puzzles solved on workers (-nats) are not seen.
type errorStats struct {
	m   *neural.Model
	rng *rand.Rand
	st  neural.ErrorStats
	err error
}

func newErrorStats(m *neural.Model, seed uint64) *errorStats {
	return &errorStats{m: m, rng: rand.New(rand.NewPCG(seed, 0x696e76))}
}

// add is a catalog.GapHooks.OnResult: it counts pz's answer when wrong
// and V's verdicts on pz (complete puzzles only).
func (e *errorStats) add(pz *neural.Puzzle, res neural.Result, err error) {
	if err != nil || res.Cells == nil || pz.Truth == nil || e.err != nil {
		return
	}
	e.st.Answer(pz, res.Cells, res.Value)
	if e.m != nil && len(pz.Patches) == pz.Cells() {
		e.err = e.st.Judge(e.m, pz, e.rng)
	}
}

// run runs bench, writing to w; with e (not nil) it adds the error
// distribution: under JSON as fields of the summary line (bench's last
// line), otherwise as lines after the bench's text.
func (e *errorStats) run(w io.Writer, asJSON bool, bench func(io.Writer) error) error {
	if e == nil {
		return bench(w)
	}
	if !asJSON {
		if err := bench(w); err != nil {
			return err
		}
		if e.err != nil {
			return e.err
		}
		_, err := io.WriteString(w, e.text())
		return err
	}
	hw := &holdLast{w: w}
	if err := bench(hw); err != nil {
		hw.flush()
		return err
	}
	if e.err != nil {
		return e.err
	}
	var sum map[string]any
	if err := json.Unmarshal(hw.last, &sum); err != nil || sum["summary"] != true {
		hw.flush()
		return nil
	}
	wrong, flagged, vacc, vn := e.fields()
	sum["wrong_misplaced"], sum["wrong_flagged"], sum["v_by_misplaced"], sum["v_by_misplaced_n"] = wrong, flagged, vacc, vn
	b, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// fields returns the distribution as JSON fields: per number of patches
// misplaced k (the index), the wrong answers and how many V flagged, and
// V's accuracy (null where nothing was judged) over how many.
func (e *errorStats) fields() (wrong, flagged []int, vacc []any, vn []int) {
	st := e.st
	for k := range st.VSeen {
		if st.VSeen[k] == 0 {
			vacc = append(vacc, nil)
		} else {
			vacc = append(vacc, float64(st.VRight[k])/float64(st.VSeen[k]))
		}
	}
	return st.Wrong, st.Flagged, vacc, st.VSeen
}

// text is the distribution as lines.
func (e *errorStats) text() string {
	var b strings.Builder
	st := e.st
	b.WriteString("wrong answers by patches misplaced:")
	found := false
	for k, c := range st.Wrong {
		if c > 0 {
			fmt.Fprintf(&b, " %d: %d (V below 1/2: %d)", k, c, st.Flagged[k])
			found = true
		}
	}
	if !found {
		b.WriteString(" none")
	}
	b.WriteString("\nV right at 1/2 by patches misplaced (0: the truth; 2: one swap):")
	for k, n := range st.VSeen {
		if n > 0 {
			fmt.Fprintf(&b, " %d: %.1f%%", k, 100*float64(st.VRight[k])/float64(n))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// holdLast passes its writes through to w line by line, holding back the
// last complete line (the summary) until flush.
type holdLast struct {
	w       io.Writer
	partial []byte
	last    []byte
}

func (h *holdLast) Write(p []byte) (int, error) {
	h.partial = append(h.partial, p...)
	for {
		i := bytes.IndexByte(h.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		if h.last != nil {
			if _, err := h.w.Write(h.last); err != nil {
				return 0, err
			}
		}
		h.last = append([]byte(nil), h.partial[:i+1]...)
		h.partial = h.partial[i+1:]
	}
}

// flush writes what is held back.
func (h *holdLast) flush() {
	h.w.Write(h.last)
	h.w.Write(h.partial)
	h.last, h.partial = nil, nil
}
