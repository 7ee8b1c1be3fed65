package npuzzle

import (
	"bytes"
	"fmt"
	"io"
	"iter"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// Limits of a set file, checked before anything is parsed.
const (
	// MaxSetBytes bounds the size of a set file.
	MaxSetBytes = 8 << 20
	// MaxSetInstances bounds the number of boards in a set file.
	MaxSetInstances = 100_000
)

// Instance is one board of a benchmark set.
type Instance struct {
	// Number counts the instances from 1, as the papers number them.
	Number int
	// Line is the line of the file where the board is.
	Line  int
	Board *Board
	// Published is the published optimal length, -1 when the file has none.
	Published int
}

// Set is a benchmark set: boards of one square size, such as Korf's 100
// random 15-puzzles, and the goal they are posed for.
type Set struct {
	Instances []Instance
	Goal      Goal
	// GoalFrom says how ParseSet found Goal: "goal line", "file name" or
	// "boards"; it is "" when none of them tells (Goal is then BlankLast,
	// and the user must say which).
	GoalFrom string
}

// ParseSet reads a set file: one board per line, its tiles row-major (0
// for the blank) on a square board from 2x2 to 10x10, optionally followed
// by the published optimal length; blank lines and lines starting with #
// are skipped. name is the file's name, for errors and the goal.
//
// The goal comes from the file itself: a comment line "# goal blank-first"
// or "# goal blank-last" when there is one; else the file's name when it
// contains blank-first or blank-last; else the boards: the one goal under
// which every board is solvable and every published length is at least
// the Manhattan distance, with its parity. The boards decide it on boards of
// even width, where each board is solvable under exactly one of the goals
// (Korf's 100 15-puzzles are blank-first); on odd widths (3x3, 5x5) both
// goals admit the same boards, and the file needs its goal line unless a
// published length falls below a Manhattan distance.
//
// The input is bounded before it is read: at most MaxSetBytes bytes and
// MaxSetInstances boards. Errors carry the package name, the file's name and
// the line.
func ParseSet(r io.Reader, name string) (Set, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSetBytes+1))
	if err != nil {
		return Set{}, fmt.Errorf("npuzzle: %s: %w", name, err)
	}
	if len(data) > MaxSetBytes {
		return Set{}, fmt.Errorf("npuzzle: %s: larger than %d MiB", name, MaxSetBytes>>20)
	}
	var (
		set      Set
		goalLine int
	)
	fail := func(line int, format string, args ...any) (Set, error) {
		return Set{}, fmt.Errorf("npuzzle: %s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	for lineNo, text := range bytesLines(data) {
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		if strings.HasPrefix(fields[0], "#") {
			g, ok, err := goalComment(fields)
			switch {
			case err != nil:
				return fail(lineNo, "%v", err)
			case ok && goalLine > 0 && g != set.Goal:
				return fail(lineNo, "a second goal line, other than line %d's", goalLine)
			case ok:
				set.Goal, set.GoalFrom, goalLine = g, "goal line", lineNo
			}
			continue
		}
		if len(set.Instances) == MaxSetInstances {
			return fail(lineNo, "more than %d boards", MaxSetInstances)
		}
		if len(fields) > MaxSide*MaxSide+1 {
			return fail(lineNo, "%d numbers: a board has at most %d tiles", len(fields), MaxSide*MaxSide)
		}
		inst := Instance{Number: len(set.Instances) + 1, Line: lineNo, Published: -1}
		tiles := fields
		if side := isqrt(len(fields) - 1); side*side == len(fields)-1 && side >= MinSide {
			tiles = fields[:len(fields)-1]
			p, err := strconv.Atoi(fields[len(fields)-1])
			if err != nil || p < 0 {
				return fail(lineNo, "the published length %q is not a number", fields[len(fields)-1])
			}
			inst.Published = p
		}
		side := isqrt(len(tiles))
		b, err := Parse(strings.Join(tiles, " "), Size{Rows: side, Cols: side})
		if err != nil {
			return fail(lineNo, "%s", strings.TrimPrefix(err.Error(), "npuzzle: "))
		}
		if len(set.Instances) > 0 && b.Size() != set.Instances[0].Board.Size() {
			return fail(lineNo, "a %v board in a set of %v boards: one size per set", b.Size(), set.Instances[0].Board.Size())
		}
		inst.Board = b
		set.Instances = append(set.Instances, inst)
	}
	if len(set.Instances) == 0 {
		return Set{}, fmt.Errorf("npuzzle: %s: no instances", name)
	}
	if set.GoalFrom == "" {
		set.Goal, set.GoalFrom = goalOf(name, set.Instances)
	}
	return set, nil
}

// bytesLines yields the lines of data with their 1-based numbers.
func bytesLines(data []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for n := 1; len(data) > 0; n++ {
			line, rest, _ := bytes.Cut(data, []byte{'\n'})
			if !yield(n, string(line)) {
				return
			}
			data = rest
		}
	}
}

// goalComment reads a comment line: ok when it is a goal line, two words
// after the #, "goal" (or "goal:") and a goal ("# goal blank-first"); an
// error when such a line names no goal. Other comments are not read.
func goalComment(fields []string) (Goal, bool, error) {
	words := append([]string{strings.TrimPrefix(fields[0], "#")}, fields[1:]...)
	if words[0] == "" {
		words = words[1:]
	}
	if len(words) != 2 || strings.TrimSuffix(strings.ToLower(words[0]), ":") != "goal" {
		return 0, false, nil
	}
	g, err := ParseGoal(strings.ToLower(words[1]))
	if err != nil {
		return 0, false, fmt.Errorf("goal line: %s", strings.TrimPrefix(err.Error(), "npuzzle: "))
	}
	return g, true, nil
}

// goalOf tells the goal of a set without a goal line: from its file name,
// else from its boards. It returns "" when neither tells.
func goalOf(name string, set []Instance) (Goal, string) {
	base := filepath.Base(name)
	switch {
	case strings.Contains(base, "blank-last"):
		return BlankLast, "file name"
	case strings.Contains(base, "blank-first"):
		return BlankFirst, "file name"
	}
	var fits []Goal
	for _, g := range []Goal{BlankLast, BlankFirst} {
		ok := true
		for _, inst := range set {
			md := Estimate(inst.Board, g, Manhattan)
			if !Solvable(inst.Board, g) || (inst.Published >= 0 && (inst.Published < md || (inst.Published-md)%2 != 0)) {
				ok = false
				break
			}
		}
		if ok {
			fits = append(fits, g)
		}
	}
	if len(fits) == 1 {
		return fits[0], "boards"
	}
	return BlankLast, ""
}

func isqrt(n int) int {
	if n < 0 {
		return -1
	}
	return int(math.Round(math.Sqrt(float64(n))))
}
