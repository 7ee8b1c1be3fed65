package play

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tessera/npuzzle"
)

func TestNpuzzleScripted(t *testing.T) {
	// A hint, an illegal move, undo, then auto-solve to the victory message.
	g := newPlayGame(npuzzle.Size{Rows: 3, Cols: 3}, 3)
	g.delay = 0
	var out bytes.Buffer
	err := g.loop(context.Background(), strings.NewReader("h"+"ws\x1b[C\x1b[D"+"u"+"a"+"q"), &out)
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"hint: ", "moves to go", "undone", "auto: move 1 of", "Solved in", "bye"} {
		if !strings.Contains(s, want) {
			t.Errorf("play output lacks %q", want)
		}
	}
	if !g.won || !g.board.IsSolved(0) {
		t.Fatal("auto-solve did not solve the board")
	}
}
