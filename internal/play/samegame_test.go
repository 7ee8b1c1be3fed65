package play

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
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
