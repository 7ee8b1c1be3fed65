package play

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
	"tessera/samegame/policy"
)

// TestSameGame clicks, undoes, asks for a hint and lets the game play
// itself to the end on the blog's first dust board.
func TestSameGame(t *testing.T) {
	b, err := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	g := SameGame{Board: b, Think: time.Second, Delay: time.Millisecond}
	if err := g.Run(t.Context(), strings.NewReader("d uh"+"aq"), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"removed", "undone", "hint: click", "Cleared in", "bye"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String()[max(0, out.Len()-2000):])
		}
	}
	out.Reset()
	g = SameGame{Rules: samegame.Standard, W: 5, H: 5, Colors: 5, Seed: 3}
	if err := g.Run(t.Context(), strings.NewReader("q"), &out); err != nil || !strings.Contains(out.String(), "standard: score 0") {
		t.Fatalf("standard: %v\n%s", err, out.String())
	}
}

// TestSameGameCertainty shows the certainty board of the blog's first dust
// board: every cell carries its group's network score, the cells of a
// group share it, the groups' probabilities sum to 1, the best-scored cell is in the group the network's greedy
// play clicks first, and p draws the board in percent with its legend.
func TestSameGameCertainty(t *testing.T) {
	b, err := samegame.ParseBoard("GGGGBOYO/RORGYGBY/RRBGOORG/BRBOBYRG/BRYBBRGG/OYGGRORG", samegame.Dust)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := certaintyBoard(b)
	if err != nil {
		t.Fatal(err)
	}
	best, bx, by := -1.0, 0, 0
	for y := range b.Height() {
		for x := range b.Width() {
			v := cert[y*b.Width()+x]
			if v < 0 || v > 1 {
				t.Fatalf("cell %d,%d: certainty %v", x, y, v)
			}
			g, _ := b.GroupAt(x, y)
			if h, _ := b.GroupAt(int(g.X), int(g.Y)); h != g || cert[int(g.Y)*b.Width()+int(g.X)] != v {
				t.Fatalf("cell %d,%d and its group's cell %v differ", x, y, g.Move())
			}
			if v > best {
				best, bx, by = v, x, y
			}
		}
	}
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	sol, err := p.Greedy(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := b.GroupAt(bx, by); g.Move() != sol.Moves[0] {
		t.Fatalf("best-scored cell %d,%d is in group %v; the greedy network clicks %v first", bx, by, g.Move(), sol.Moves[0])
	}
	var out bytes.Buffer
	if err := (SameGame{Board: b}).Run(t.Context(), strings.NewReader("pq"), &out); err != nil {
		t.Fatal(err)
	}
	screens := strings.Split(out.String(), "arrows/WASD")
	if len(screens) < 2 || !strings.Contains(out.String(), "certainty: the network's probability") {
		t.Fatalf("no certainty legend:\n%s", out.String())
	}
	if d := min(int(best*100+0.5), 99); !strings.Contains(out.String(), fmt.Sprintf("%02d", d)) {
		t.Fatalf("the best probability %02d%% is not drawn:\n%s", d, out.String())
	}
	// SameGame.Certainty (play -certainty) shows it from the start.
	var first bytes.Buffer
	if err := (SameGame{Board: b, Certainty: true}).Run(t.Context(), strings.NewReader("q"), &first); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.String(), "certainty: the network's probability") {
		t.Fatalf("Certainty: no certainty board at the start:\n%s", first.String())
	}
	sum := 0.0
	for y := range b.Height() {
		for x := range b.Width() {
			if g, _ := b.GroupAt(x, y); int(g.X) == x && int(g.Y) == y {
				sum += cert[y*b.Width()+x]
			}
		}
	}
	if sum < 0.999 || sum > 1.001 {
		t.Fatalf("the groups' probabilities sum to %v", sum)
	}
}
