package sat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// CNF is a propositional formula in conjunctive normal form over the
// variables 1..Vars, as DIMACS writes it: Lits holds the clauses one after
// the other, each ended by a 0, and Clauses counts them.
type CNF struct {
	Vars    int
	Clauses int
	Lits    []int32
	// Comments are written as "c" lines at the top of the DIMACS file.
	Comments []string

	// pairwise is the largest set atMostOne encodes pairwise (0:
	// defaultPairwise).
	pairwise int
}

// newVar returns a fresh variable.
func (f *CNF) newVar() int32 {
	f.Vars++
	return int32(f.Vars)
}

// add appends the clause of lits.
func (f *CNF) add(lits ...int32) {
	f.Lits = append(f.Lits, lits...)
	f.Lits = append(f.Lits, 0)
	f.Clauses++
}

// atMostOne adds clauses allowing at most one of lits to be true: every
// pair for up to f.pairwise literals (n(n-1)/2 binary clauses, no new
// variable), Sinz's sequential counter above (a ladder of n-1 new variables
// s_i meaning "one of lits[0..i] is true": 3n-4 binary clauses). Both
// propagate as well as the pairwise encoding: a true literal falsifies all
// the others by unit propagation.
func (f *CNF) atMostOne(lits []int32) {
	n := len(lits)
	if n <= f.pairwiseMax() {
		for i := range n {
			for j := i + 1; j < n; j++ {
				f.add(-lits[i], -lits[j])
			}
		}
		return
	}
	prev := f.newVar()
	f.add(-lits[0], prev)
	for i := 1; i < n-1; i++ {
		s := f.newVar()
		f.add(-lits[i], s)
		f.add(-prev, s)
		f.add(-lits[i], -prev)
		prev = s
	}
	f.add(-lits[n-1], -prev)
}

// defaultPairwise is the largest set that atMostOne encodes pairwise by
// default.
const defaultPairwise = 6

func (f *CNF) pairwiseMax() int {
	if f.pairwise <= 0 {
		return defaultPairwise
	}
	return f.pairwise
}

// amoClauses is the number of clauses atMostOne adds for n literals, sets
// up to pw encoded pairwise.
func amoClauses(n, pw int) int64 {
	if n <= pw {
		return int64(n) * int64(n-1) / 2
	}
	return int64(3*n - 4)
}

// WriteTo writes f in DIMACS CNF: the comments, the "p cnf VARS CLAUSES"
// line, a clause per line.
func (f *CNF) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := &countWriter{w: bw}
	for _, c := range f.Comments {
		for l := range strings.SplitSeq(c, "\n") {
			fmt.Fprintf(cw, "c %s\n", l)
		}
	}
	fmt.Fprintf(cw, "p cnf %d %d\n", f.Vars, f.Clauses)
	buf := make([]byte, 0, 64)
	for _, l := range f.Lits {
		buf = strconv.AppendInt(buf, int64(l), 10)
		if l == 0 {
			buf = append(buf, '\n')
			cw.Write(buf)
			buf = buf[:0]
		} else {
			buf = append(buf, ' ')
		}
	}
	if err := bw.Flush(); err != nil && cw.err == nil {
		cw.err = err
	}
	return cw.n, cw.err
}

// countWriter counts the bytes written and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// SAT solver output, as the SAT competitions define it: "s SATISFIABLE",
// "s UNSATISFIABLE" or "s UNKNOWN", and the model on "v" lines ended by 0.
type satStatus int

const (
	satUnknown satStatus = iota
	satSat
	satUnsat
)

// errSATOutput is wrapped by the errors of parseSATOutput.
var errSATOutput = errors.New("edgematch: malformed SAT solver output")

// maxSATLine bounds one line of solver output (some solvers print the model
// on one line).
const maxSATLine = 64 << 20

// parseSATOutput reads a SAT solver's standard output for a formula of
// vars variables. Comment lines ("c") and lines it does not know are
// skipped. For a satisfiable answer it returns the model, model[v] for
// variable v (index 0 unused); variables the solver left out are false. It
// fails on a status line repeated with another answer, a literal out of
// range or given both signs, a model on an answer other than SATISFIABLE,
// and a satisfiable answer without a model ended by 0 (a truncated
// output). The reader should be bounded by the caller; a line longer than
// maxSATLine is an error.
func parseSATOutput(r io.Reader, vars int) (satStatus, []bool, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxSATLine)
	status := satUnknown
	seenStatus := false
	var val []int8 // 0 unset, 1 true, -1 false
	ended := false
	line := 0
	for sc.Scan() {
		line++
		t := sc.Bytes()
		if len(t) == 0 {
			continue
		}
		switch t[0] {
		case 's':
			var st satStatus
			switch strings.TrimSpace(string(t[1:])) {
			case "SATISFIABLE":
				st = satSat
			case "UNSATISFIABLE":
				st = satUnsat
			case "UNKNOWN", "INDETERMINATE":
				st = satUnknown
			default:
				return satUnknown, nil, fmt.Errorf("%w: line %d: unknown status %q", errSATOutput, line, truncate(string(t), 60))
			}
			if seenStatus && st != status {
				return satUnknown, nil, fmt.Errorf("%w: line %d: a second status line with another answer", errSATOutput, line)
			}
			status, seenStatus = st, true
		case 'v':
			if val == nil {
				val = make([]int8, vars+1)
			}
			for _, tok := range strings.Fields(string(t[1:])) {
				l, err := strconv.ParseInt(tok, 10, 64)
				if err != nil {
					return satUnknown, nil, fmt.Errorf("%w: line %d: %q is not a literal", errSATOutput, line, truncate(tok, 30))
				}
				if ended {
					return satUnknown, nil, fmt.Errorf("%w: line %d: literals after the model's final 0", errSATOutput, line)
				}
				if l == 0 {
					ended = true
					continue
				}
				v, s := l, int8(1)
				if v < 0 {
					v, s = -v, -1
				}
				if v > int64(vars) {
					return satUnknown, nil, fmt.Errorf("%w: line %d: literal %d beyond the %d variables", errSATOutput, line, l, vars)
				}
				if val[v] == -s {
					return satUnknown, nil, fmt.Errorf("%w: line %d: variable %d given both values", errSATOutput, line, v)
				}
				val[v] = s
			}
		}
	}
	if err := sc.Err(); err != nil {
		return satUnknown, nil, fmt.Errorf("%w: line %d: %v", errSATOutput, line+1, err)
	}
	if val != nil && status != satSat {
		return satUnknown, nil, fmt.Errorf("%w: a model without the answer SATISFIABLE", errSATOutput)
	}
	if status != satSat {
		return status, nil, nil
	}
	if !ended {
		return satUnknown, nil, fmt.Errorf("%w: SATISFIABLE without a complete model (no v line ended by 0)", errSATOutput)
	}
	model := make([]bool, vars+1)
	for v, s := range val {
		model[v] = s > 0
	}
	return satSat, model, nil
}

// truncate shortens s to at most n bytes for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// checkCtxEvery is how many items the encoder handles between looks at the
// context.
const checkCtxEvery = 1 << 14

// ctxErr returns ctx.Err() every checkCtxEvery calls (counted by *n).
func ctxErr(ctx context.Context, n *int) error {
	*n++
	if *n%checkCtxEvery == 0 {
		return ctx.Err()
	}
	return nil
}

// clausesOf returns the clauses of f as slices (for tests).
func (f *CNF) clausesOf() [][]int32 {
	var out [][]int32
	start := 0
	for i, l := range f.Lits {
		if l == 0 {
			out = append(out, slices.Clone(f.Lits[start:i]))
			start = i + 1
		}
	}
	return out
}
