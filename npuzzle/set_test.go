package npuzzle

import (
	"os"
	"strings"
	"testing"
)

// TestParseSetKorf100 reads Korf's 100 and finds their goal from the
// boards alone: each 4x4 board is solvable for one of the two goals only.
func TestParseSetKorf100(t *testing.T) {
	f, err := os.Open("testdata/korf100.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := ParseSet(f, "testdata/korf100.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Instances) != 100 || set.Goal != BlankFirst || set.GoalFrom != "boards" {
		t.Fatalf("%d instances, goal %v from %q; want 100, blank-first from the boards", len(set.Instances), set.Goal, set.GoalFrom)
	}
	first, last := set.Instances[0], set.Instances[99]
	if first.Number != 1 || first.Line != 1 || first.Published != 57 || first.Board.Line() != "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3" ||
		last.Number != 100 || last.Published != 54 {
		t.Fatalf("instances 1 and 100: %+v, %+v", first, last)
	}
	// The same boards rotated to the blank-last goal are blank-last.
	var sb strings.Builder
	for _, inst := range set.Instances {
		sb.WriteString(rotateToBlankLast(inst.Board).Line() + "\n")
	}
	rot, err := ParseSet(strings.NewReader(sb.String()), "set.txt")
	if err != nil || rot.Goal != BlankLast || rot.GoalFrom != "boards" || rot.Instances[0].Published != -1 {
		t.Fatalf("rotated: goal %v from %q, %v", rot.Goal, rot.GoalFrom, err)
	}
}

func TestParseSetGoal(t *testing.T) {
	const eight = "1 2 3 4 0 6 7 5 8\n8 6 7 2 5 4 3 0 1\n"
	for _, c := range []struct {
		name, text string
		goal       Goal
		from       string
	}{
		{"eight.txt", eight, BlankLast, ""}, // 3x3: both goals fit
		{"eight.txt", "# goal blank-first\n" + eight, BlankFirst, "goal line"},
		{"eight-blank-last.txt", "#goal: blank-first\n" + eight, BlankFirst, "goal line"},
		{"data/eight-blank-first.txt", eight, BlankFirst, "file name"},
		{"eight.txt", "# goal of this file: none\n" + eight, BlankLast, ""},
		{"two.txt", "1 2 3 0 2\n", BlankLast, "boards"}, // 2 moves, Manhattan 2 blank-last, 4 blank-first
	} {
		set, err := ParseSet(strings.NewReader(c.text), c.name)
		if err != nil || set.Goal != c.goal || set.GoalFrom != c.from || len(set.Instances) == 0 {
			t.Errorf("%s %q: goal %v from %q, %v; want %v from %q", c.name, c.text, set.Goal, set.GoalFrom, err, c.goal, c.from)
		}
	}
}

func TestParseSetErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "no instances"},
		{"# only a comment\n", "no instances"},
		{"1 2 3 4 5 6 7 0 8 x\n", ":1: the published length \"x\""},
		{"1 0 2 3\n\n1 2 3 4 5 6 7 8 0\n", ":3: a 3x3 board in a set of 2x2 boards"},
		{"1 2 3 4 5 6 7 8 8\n", ":1: "},
		{"1 2 3\n", ":1: "},
		{"# goal sideways\n1 0 2 3\n", ":1: goal line: unknown goal"},
		{"# goal first\n# goal last\n1 0 2 3\n", ":2: a second goal line"},
		{strings.Repeat("1 ", 102) + "\n", "at most 100 tiles"},
		{strings.Repeat("1 0 2 3\n", MaxSetBytes/8+1), "larger than 8 MiB"},
		{strings.Repeat("1 0 2 3\n", MaxSetInstances+1), "more than 100000 boards"},
	} {
		_, err := ParseSet(strings.NewReader(c.text), "s.txt")
		if err == nil || !strings.HasPrefix(err.Error(), "npuzzle: s.txt") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: %v; want an error with %q", c.text, err, c.want)
		}
	}
}
