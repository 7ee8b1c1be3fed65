package sdp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Bounds of ReadSDPA.
const (
	// MaxSDPABytes bounds the size of an SDPA file.
	MaxSDPABytes = 256 << 20
	// MaxBlocks bounds the number of blocks of a problem read.
	MaxBlocks = 1 << 16
)

// ReadSDPA reads a problem in the SDPA sparse format (.dat-s), the format
// of SDPLIB (Borchers 1999) and of CSDP's command line:
//
//	"comment lines first, starting with " or *
//	m                 number of constraints (the rest of the line is ignored)
//	nblocks           number of blocks
//	s_1 ... s_nblocks block sizes, negative for diagonal (LP) blocks
//	b_1 ... b_m       right-hand sides
//	k blk i j v       entries, one a line: matrix k (0 for C, 1..m for
//	                  A_k), block blk, row i, column j (all 1-based), value
//
// The characters , { } ( ) count as spaces; the sizes and the right-hand
// sides may span lines. The problem is CSDP's (maximise <C, X>), which is
// SDPA's dual; SDPA's primal, min b'y s.t. sum y_i A_i - C ⪰ 0, is our
// dual. Entries are read as by Problem (see Entry): either triangle, both
// only when they agree, repeats added up. The input is bounded (MaxSDPABytes, MaxBlocks,
// MaxBlockSize, MaxConstraints) before it is stored, errors give the line,
// and the problem returned passes Validate.
func ReadSDPA(r io.Reader) (*Problem, error) { return readSDPA(r, MaxSDPABytes) }

func readSDPA(r io.Reader, limit int64) (*Problem, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("sdp: sdpa: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("sdp: sdpa: input over %d bytes", limit)
	}
	sc := &sdpaScanner{lines: bytes.Split(data, []byte("\n"))}
	// Comments.
	for sc.line < len(sc.lines) {
		l := bytes.TrimSpace(sc.lines[sc.line])
		if len(l) > 0 && l[0] != '"' && l[0] != '*' {
			break
		}
		sc.line++
	}
	m, err := sc.headerInt("the number of constraints", 1, MaxConstraints)
	if err != nil {
		return nil, err
	}
	nb, err := sc.headerInt("the number of blocks", 1, MaxBlocks)
	if err != nil {
		return nil, err
	}
	p := &Problem{Blocks: make([]Block, nb)}
	sizes, err := sc.values("block sizes", nb)
	if err != nil {
		return nil, err
	}
	for k, tok := range sizes {
		s, err := strconv.Atoi(tok.s)
		if err != nil || s == 0 || s < -MaxBlockSize || s > MaxBlockSize {
			return nil, fmt.Errorf("sdp: sdpa line %d: block size %q, want a non-zero integer of magnitude at most %d", tok.line, tok.s, MaxBlockSize)
		}
		p.Blocks[k] = Block{Size: max(s, -s), Diagonal: s < 0}
	}
	bs, err := sc.values("right-hand sides", m)
	if err != nil {
		return nil, err
	}
	p.Constraints = make([]Constraint, m)
	for i, tok := range bs {
		if p.Constraints[i].B, err = parseFloat(tok); err != nil {
			return nil, err
		}
	}
	for ; sc.line < len(sc.lines); sc.line++ {
		f := sdpaFields(sc.lines[sc.line])
		if len(f) == 0 {
			continue
		}
		ln := sc.line + 1
		if len(f) < 5 {
			return nil, fmt.Errorf("sdp: sdpa line %d: %d fields, want 5 (matrix block i j value)", ln, len(f))
		}
		var idx [4]int
		for t := range 4 {
			v, err := strconv.Atoi(string(f[t]))
			if err != nil {
				return nil, fmt.Errorf("sdp: sdpa line %d: %q is not an integer", ln, f[t])
			}
			idx[t] = v
		}
		k, blk, i, j := idx[0], idx[1], idx[2], idx[3]
		v, err := parseFloat(sdpaToken{string(f[4]), ln})
		if err != nil {
			return nil, err
		}
		if k < 0 || k > m {
			return nil, fmt.Errorf("sdp: sdpa line %d: matrix %d out of range 0..%d", ln, k, m)
		}
		if blk < 1 || blk > nb {
			return nil, fmt.Errorf("sdp: sdpa line %d: block %d out of range 1..%d", ln, blk, nb)
		}
		b := p.Blocks[blk-1]
		if i < 1 || i > b.Size || j < 1 || j > b.Size {
			return nil, fmt.Errorf("sdp: sdpa line %d: entry (%d, %d) out of range of block %d (size %d)", ln, i, j, blk, b.Size)
		}
		if b.Diagonal && i != j {
			return nil, fmt.Errorf("sdp: sdpa line %d: off-diagonal entry (%d, %d) in diagonal block %d", ln, i, j, blk)
		}
		e := E(blk-1, i-1, j-1, v)
		if k == 0 {
			p.C = append(p.C, e)
		} else {
			p.Constraints[k-1].A = append(p.Constraints[k-1].A, e)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("sdp: sdpa: %s", strings.TrimPrefix(err.Error(), "sdp: "))
	}
	return p, nil
}

type sdpaToken struct {
	s    string
	line int
}

type sdpaScanner struct {
	lines [][]byte
	line  int // next line, 0-based
}

// sdpaFields splits a line at spaces, tabs, commas, braces and
// parentheses.
func sdpaFields(l []byte) [][]byte {
	return bytes.FieldsFunc(l, func(r rune) bool {
		switch r {
		case ' ', '\t', '\r', '\v', '\f', ',', '{', '}', '(', ')':
			return true
		}
		return false
	})
}

// headerInt reads the first field of the next non-blank line as an integer
// in lo..hi.
func (sc *sdpaScanner) headerInt(what string, lo, hi int) (int, error) {
	for ; sc.line < len(sc.lines); sc.line++ {
		f := sdpaFields(sc.lines[sc.line])
		if len(f) == 0 {
			continue
		}
		sc.line++
		// SDPLIB writes "2 =mdim": the rest of the line is a comment, and
		// so is anything after the leading digits.
		d := f[0]
		for n := range d {
			if !(d[n] >= '0' && d[n] <= '9' || n == 0 && (d[n] == '-' || d[n] == '+')) {
				d = d[:n]
				break
			}
		}
		v, err := strconv.Atoi(string(d))
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("sdp: sdpa line %d: %s %q, want an integer in %d..%d", sc.line, what, f[0], lo, hi)
		}
		return v, nil
	}
	return 0, fmt.Errorf("sdp: sdpa: input ends before %s", what)
}

// values reads n fields from the next lines (the rest of the last line is
// ignored).
func (sc *sdpaScanner) values(what string, n int) ([]sdpaToken, error) {
	out := make([]sdpaToken, 0, min(n, 1024))
	for ; len(out) < n && sc.line < len(sc.lines); sc.line++ {
		for _, f := range sdpaFields(sc.lines[sc.line]) {
			if len(out) < n {
				out = append(out, sdpaToken{string(f), sc.line + 1})
			}
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("sdp: sdpa: input ends after %d of %d %s", len(out), n, what)
	}
	return out, nil
}

func parseFloat(t sdpaToken) (float64, error) {
	v, err := strconv.ParseFloat(t.s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("sdp: sdpa line %d: %q out of range", t.line, t.s)
		}
		return 0, fmt.Errorf("sdp: sdpa line %d: %q is not a number", t.line, t.s)
	}
	return v, nil
}

// WriteSDPA writes p (checked by Validate) in the SDPA sparse format, in a
// canonical form: entries in the upper triangle, repeated entries added
// up, zeros dropped, sorted by matrix, block, row and column, values with
// the fewest digits that read back exactly. A Minimize problem is written
// with C negated (SDPA's dual maximises), so its objective values read
// back negated.
func WriteSDPA(w io.Writer, p *Problem) error {
	md, err := newModel(p)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "\"written by tessera/sdp\n%d\n%d\n", md.m, len(p.Blocks))
	for k, b := range p.Blocks {
		if k > 0 {
			bw.WriteByte(' ')
		}
		if b.Diagonal {
			bw.WriteByte('-')
		}
		bw.WriteString(strconv.Itoa(b.Size))
	}
	bw.WriteByte('\n')
	for i, v := range md.b {
		if i > 0 {
			bw.WriteByte(' ')
		}
		bw.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	}
	bw.WriteByte('\n')
	// cEntries hold the internal minimisation's c: -C when maximising, C
	// when minimising; SDPA maximises, so -c is C or -C.
	sign := -1.0
	for _, e := range md.cEntries {
		fmt.Fprintf(bw, "0 %d %d %d %s\n", e.Block+1, e.I+1, e.J+1, strconv.FormatFloat(sign*e.V, 'g', -1, 64))
	}
	for ci, parts := range md.cons {
		for _, pt := range parts {
			for e, v := range pt.v {
				fmt.Fprintf(bw, "%d %d %d %d %s\n", ci+1, pt.blk+1, pt.i[e]+1, pt.j[e]+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
	}
	return bw.Flush()
}
