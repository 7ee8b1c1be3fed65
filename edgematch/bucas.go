package edgematch

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// The e2.bucas.name viewer is the Eternity II community's way to share
// boards: a URL whose fragment carries board_w, board_h, board_edges (four
// letters per cell, up right down left, cells row by row from the top
// left, "a" for grey and "aaaa" for an empty cell), optionally
// board_pieces (three digits per cell, 000 for empty) and motifs_order,
// which picks the alphabet of the letters.

// BucasBase is the viewer's address.
const BucasBase = "https://e2.bucas.name/"

// Motif alphabets of the viewer for the Eternity II colour labels 0..22 of
// eternity2.txt (from eternity2_colour_maps.txt). The "jblackwood"
// alphabet is simply 'a'+colour and serves every puzzle of up to 26
// colours.
var bucasAlphabets = map[string]string{
	"":     "abglqejotchmrfkpudinsvw",
	"jef":  "aihgfedcbqponmlkjwvutsr",
	"none": "abglqejotchmrfkpudinsvw",
}

// BucasURL returns the viewer URL showing b, with board_pieces, in the
// "jblackwood" alphabet (letter = 'a' + colour). name is the puzzle label
// the viewer shows. It fails for colours above 25, which the alphabet
// cannot write.
func (p *Puzzle) BucasURL(b *Board, name string) (string, error) {
	if err := p.Check(b); err != nil {
		return "", err
	}
	var edges, pieces strings.Builder
	for _, cell := range b.Cells {
		if cell.Piece == NoPiece {
			edges.WriteString("aaaa")
			pieces.WriteString("000")
			continue
		}
		for d := range 4 {
			c := p.Edge(cell, d)
			if c > 25 {
				return "", fmt.Errorf("edgematch: colour %d cannot be written in the viewer's alphabet (a..z)", c)
			}
			edges.WriteByte('a' + byte(c))
		}
		if cell.Piece+1 > 999 {
			return "", fmt.Errorf("edgematch: piece %d cannot be written in board_pieces (3 digits)", cell.Piece+1)
		}
		fmt.Fprintf(&pieces, "%03d", cell.Piece+1)
	}
	q := "puzzle=" + url.QueryEscape(name) +
		"&board_w=" + strconv.Itoa(b.Cols) + "&board_h=" + strconv.Itoa(b.Rows) +
		"&board_edges=" + edges.String() + "&board_pieces=" + pieces.String() +
		"&motifs_order=jblackwood"
	return BucasBase + "#" + q, nil
}

// ParseBucasURL reads a board from a viewer URL for the puzzle p. The
// pieces come from board_pieces when present (their rotations from the
// edges); otherwise each cell's four colours are looked up among the
// pieces. Letters are decoded with the alphabet of motifs_order:
// "jblackwood" ('a' + colour) for any puzzle, or the viewer's default and
// "jef" alphabets for Eternity II's colour labels.
func ParseBucasURL(raw string, p *Puzzle) (*Board, error) {
	query := raw
	if i := strings.IndexAny(raw, "#?"); i >= 0 {
		query = raw[i+1:]
	}
	v, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("edgematch: bucas URL: %v", err)
	}
	w, err1 := strconv.Atoi(v.Get("board_w"))
	h, err2 := strconv.Atoi(v.Get("board_h"))
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("edgematch: bucas URL: board_w and board_h must be numbers")
	}
	if h != p.Rows || w != p.Cols {
		return nil, fmt.Errorf("edgematch: bucas URL: %dx%d board for a %dx%d puzzle", h, w, p.Rows, p.Cols)
	}
	order := v.Get("motifs_order")
	decode := func(ch byte) (Colour, bool) {
		if order == "jblackwood" {
			return Colour(ch - 'a'), ch >= 'a' && ch <= 'z'
		}
		alpha, ok := bucasAlphabets[order]
		if !ok {
			return 0, false
		}
		i := strings.IndexByte(alpha, ch)
		return Colour(i), i >= 0
	}
	if _, ok := bucasAlphabets[order]; !ok && order != "jblackwood" {
		return nil, fmt.Errorf("edgematch: bucas URL: unknown motifs_order %q (want none, jef or jblackwood)", order)
	}
	edges := v.Get("board_edges")
	if len(edges) != 4*w*h {
		return nil, fmt.Errorf("edgematch: bucas URL: board_edges has %d letters, want %d", len(edges), 4*w*h)
	}
	pieces := v.Get("board_pieces")
	if pieces != "" && len(pieces) != 3*w*h {
		return nil, fmt.Errorf("edgematch: bucas URL: board_pieces has %d digits, want %d", len(pieces), 3*w*h)
	}
	// Every rotation of every piece, to find pieces by their colours.
	byColours := make(map[Tile][]Placement)
	for i, t := range p.Tiles {
		for r := range 4 {
			byColours[t.Rotate(r)] = append(byColours[t.Rotate(r)], Placement{i, r})
		}
	}
	b := NewBoard(h, w)
	used := make([]bool, len(p.Tiles))
	for i := range w * h {
		var t Tile
		for d := range 4 {
			c, ok := decode(edges[4*i+d])
			if !ok {
				return nil, fmt.Errorf("edgematch: bucas URL: cell %d: unknown motif letter %q", i+1, edges[4*i+d])
			}
			t[d] = c
		}
		empty := t == Tile{}
		var cell Placement
		if pieces != "" {
			n, err := strconv.Atoi(pieces[3*i : 3*i+3])
			if err != nil || n < 0 || n > len(p.Tiles) {
				return nil, fmt.Errorf("edgematch: bucas URL: cell %d: bad piece number %q", i+1, pieces[3*i:3*i+3])
			}
			if n == 0 {
				if !empty {
					return nil, fmt.Errorf("edgematch: bucas URL: cell %d has edges but piece 000", i+1)
				}
				continue
			}
			cell = Placement{n - 1, -1}
			for r := range 4 {
				if p.Tiles[n-1].Rotate(r) == t {
					cell.Rot = r
					break
				}
			}
			if cell.Rot < 0 {
				return nil, fmt.Errorf("edgematch: bucas URL: cell %d: piece %d has no rotation showing these edges", i+1, n)
			}
		} else {
			if empty {
				continue
			}
			found := false
			for _, c := range byColours[t] {
				if !used[c.Piece] {
					cell, found = c, true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("edgematch: bucas URL: cell %d: no unused piece shows these edges", i+1)
			}
		}
		if used[cell.Piece] {
			return nil, fmt.Errorf("edgematch: bucas URL: piece %d is placed twice", cell.Piece+1)
		}
		used[cell.Piece] = true
		b.Cells[i] = cell
	}
	return b, nil
}
