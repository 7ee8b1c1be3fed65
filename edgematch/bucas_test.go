package edgematch

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestBucasURL(t *testing.T) {
	// Eternity II with its first clue, and the 470 board (the package's
	// file readers: emtest, which the other tests use, imports edgematch).
	p, err := ReadPuzzleFile("testdata/eternity2.txt")
	if err == nil {
		err = p.AddHintsFile("testdata/eternity2_clues.txt", 1)
	}
	var b *Board
	if err == nil {
		b, err = ReadBoard("testdata/eternity2_470_blackwood.board", p)
	}
	if err != nil {
		t.Fatal(err)
	}
	url, err := p.BucasURL(b, "E2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, BucasBase+"#puzzle=E2&board_w=16&board_h=16&board_edges=") || !strings.Contains(url, "&board_pieces=") {
		t.Fatalf("url %s", url)
	}
	back, err := ParseBucasURL(url, p)
	if err != nil || !slices.Equal(back.Cells, b.Cells) {
		t.Fatalf("round trip: %v", err)
	}
	// Without board_pieces, the pieces are found from their colours.
	i := strings.Index(url, "&board_pieces=")
	j := strings.Index(url, "&motifs_order")
	back, err = ParseBucasURL(url[:i]+url[j:], p)
	if err != nil || !slices.Equal(back.Cells, b.Cells) {
		t.Fatalf("edges only: %v", err)
	}
	// The viewer's default and "jef" alphabets, from the shared colour map.
	maps, err := os.ReadFile("testdata/eternity2_colour_maps.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(maps), "\n") {
		f := strings.Fields(strings.SplitN(line, "#", 2)[0])
		if len(f) != 5 {
			continue
		}
		label := f[0]
		for alpha, col := range map[string]int{"": 1, "jef": 2} {
			got := bucasAlphabets[alpha][atoiMust(t, label)]
			if string(got) != f[col] {
				t.Errorf("alphabet %q: label %s is %c, the map says %s", alpha, label, got, f[col])
			}
		}
	}
	var sb strings.Builder
	for _, cell := range b.Cells {
		for d := range 4 {
			sb.WriteByte(bucasAlphabets["jef"][p.Edge(cell, d)])
		}
	}
	back, err = ParseBucasURL("https://e2.bucas.name/#puzzle=x&board_w=16&board_h=16&motifs_order=jef&board_edges="+sb.String(), p)
	if err != nil || !slices.Equal(back.Cells, b.Cells) {
		t.Fatalf("jef alphabet: %v", err)
	}
	for _, bad := range []struct{ url, want string }{
		{"board_w=16&board_h=15&board_edges=a", "15x16 board for a 16x16 puzzle"},
		{"board_w=16&board_h=16&board_edges=abc", "has 3 letters"},
		{"board_w=16&board_h=16&motifs_order=zzz&board_edges=a", "unknown motifs_order"},
		{"board_w=16&board_h=16&motifs_order=jblackwood&board_edges=" + strings.Repeat("A", 1024), "unknown motif letter"},
	} {
		if _, err := ParseBucasURL(bad.url, p); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.60s: %v, want %q", bad.url, err, bad.want)
		}
	}
}

func atoiMust(t *testing.T, s string) int {
	v, err := atoi(s, 255, "label")
	if err != nil {
		t.Fatal(err)
	}
	return v
}
