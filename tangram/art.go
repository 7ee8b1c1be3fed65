package tangram

import (
	"fmt"
	"strings"
)

// ParseArt reads a figure drawn on the square grid where the small
// triangle's legs are 1, one character per unit cell, the top row first:
//
//	'.' or ' '  empty
//	'#'         the whole cell
//	'1' '3' '7' '9'  half the cell, cut by a diagonal: the half that holds
//	            the cell's lower-left, lower-right, upper-left or
//	            upper-right corner (the keys of a numeric keypad)
//
// Every tan can lie on this grid (the large and small triangles with their
// legs along it, the medium one with its long side along it, the square
// and the parallelogram's short sides along it), and so can most figures
// of the tangram books. The result is the outline of the drawn cells: a
// puzzle with the seven tans (Tans), turns and mirror images allowed, and
// the outline as its region, several polygons when parts touch at a corner
// and holes where the drawing has them. Its area must be 8 (16 half
// cells). At most 64 rows of 64 cells.
func ParseArt(name string, rows []string) (*Puzzle, error) {
	if len(rows) > 64 {
		return nil, fmt.Errorf("tangram: art %q: %d rows, at most 64", name, len(rows))
	}
	var c chain
	cells := 0
	for r, row := range rows {
		if len(row) > 64 {
			return nil, fmt.Errorf("tangram: art %q: row %d has %d cells, at most 64", name, r+1, len(row))
		}
		y := int64(len(rows) - 1 - r)
		for x, ch := range row {
			x := int64(x)
			p00, p10 := Point{Int(x), Int(y)}, Point{Int(x + 1), Int(y)}
			p01, p11 := Point{Int(x), Int(y + 1)}, Point{Int(x + 1), Int(y + 1)}
			var pg Polygon
			switch ch {
			case '.', ' ':
				continue
			case '#':
				pg = Polygon{p00, p10, p11, p01}
			case '1':
				pg = Polygon{p00, p10, p01}
			case '3':
				pg = Polygon{p00, p10, p11}
			case '7':
				pg = Polygon{p00, p11, p01}
			case '9':
				pg = Polygon{p10, p11, p01}
			default:
				return nil, fmt.Errorf("tangram: art %q: row %d: unknown cell %q (want . # 1 3 7 9)", name, r+1, ch)
			}
			cells += len(pg) - 2
			c.addPolygon(pg, 1)
		}
	}
	if cells != 16 {
		return nil, fmt.Errorf("tangram: art %q: %d half cells, the tans cover 16", name, cells)
	}
	outers, holes, ok := regionFromChain(&c)
	if !ok || len(outers) == 0 {
		return nil, fmt.Errorf("tangram: art %q: the outline is not a region", name)
	}
	p := &Puzzle{Name: name, Turns: TurnsFlip, Pieces: Tans()}
	p.setRegion(outers, holes)
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("tangram: art %q: %w", name, err)
	}
	return p, nil
}

// ArtFigure is a drawing read by ParseArtFile.
type ArtFigure struct {
	Name, Category, Source string
	Rows                   []string
	// Placed: the rows are the seven tans' polygons (ParsePlaced), not
	// grid cells; the drawing's header is "+ NAME CATEGORY [SOURCE]".
	Placed bool
}

// ParseArtFile reads drawings: each starts with a line
// "= NAME CATEGORY [SOURCE...]" followed by its rows (ParseArt) up to a
// blank line or the next header, or "+ NAME CATEGORY [SOURCE...]"
// followed by the seven tans' polygons (ParsePlaced); lines starting with
// "//" are comments.
// SOURCE defaults to "composed for Tessera".
func ParseArtFile(text string) ([]ArtFigure, error) {
	if len(text) > MaxFileBytes {
		return nil, fmt.Errorf("tangram: art file larger than %d bytes", MaxFileBytes)
	}
	var out []ArtFigure
	open := false
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \r\t")
		switch {
		case strings.HasPrefix(line, "//"):
		case strings.HasPrefix(line, "=") || strings.HasPrefix(line, "+"):
			f := strings.Fields(line[1:])
			if len(f) < 2 {
				return nil, fmt.Errorf("tangram: art line %d: want \"= NAME CATEGORY [SOURCE]\"", n+1)
			}
			if err := checkName(f[0]); err != nil {
				return nil, fmt.Errorf("tangram: art line %d: %v", n+1, err)
			}
			src := "composed for Tessera"
			if len(f) > 2 {
				src = strings.Join(f[2:], " ")
			}
			out = append(out, ArtFigure{Name: f[0], Category: f[1], Source: src, Placed: line[0] == '+'})
			open = true
		case line == "":
			open = false
		case !open:
			return nil, fmt.Errorf("tangram: art line %d: a row outside a drawing", n+1)
		default:
			a := &out[len(out)-1]
			a.Rows = append(a.Rows, line)
		}
	}
	return out, nil
}
