package tangram

import (
	"slices"
	"strings"
)

// ConvexCandidates lists, up to turns and mirror images, the convex
// polygons of area 8 whose vertices lie on the integer grid and whose
// edges run in the 8 directions of the grid and its diagonals, at most
// maxStep steps each: the shapes among which Wang and Hsiung ("A theorem
// on the tangram", Amer. Math. Monthly 49, 1942) found exactly 13 that the
// seven tans can form. Which of them solve is for the exact solver to
// say (TestConvexThirteen finds the 13). Each is counter-clockwise,
// lowest-leftmost vertex first at the origin.
func ConvexCandidates(maxStep int) []Polygon {
	dirs := [8][2]int64{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	var out []Polygon
	var l [8]int
	var rec func(k int)
	rec = func(k int) {
		if k == 8 {
			var x, y int64
			var pg Polygon
			for j := range 8 {
				if l[j] == 0 {
					continue
				}
				pg = append(pg, Point{Int(x), Int(y)})
				x += int64(l[j]) * dirs[j][0]
				y += int64(l[j]) * dirs[j][1]
			}
			if x != 0 || y != 0 || len(pg) < 3 || pg.Area().Cmp(Area{64, 0}) != 0 {
				return
			}
			pg = pg.Normalize()
			pg = pg.Translate(pg[0].Neg())
			for _, q := range out {
				if congruent(q, pg, true) {
					return
				}
			}
			out = append(out, pg)
			return
		}
		for s := 0; s <= maxStep; s++ {
			l[k] = s
			rec(k + 1)
		}
	}
	rec(0)
	return out
}

// Octominoes lists the free octominoes (shapes of 8 unit squares joined
// edge to edge, up to turns and mirror images; there are 369), each as
// rows for ParseArt, in a fixed order.
func Octominoes() [][]string {
	type cell struct{ x, y int }
	canon := func(cs []cell) string {
		best := ""
		for s := range 8 {
			t := make([]cell, len(cs))
			for k, c := range cs {
				x, y := c.x, c.y
				if s&4 != 0 {
					x = -x
				}
				for range s & 3 {
					x, y = -y, x
				}
				t[k] = cell{x, y}
			}
			mx, my := t[0].x, t[0].y
			for _, c := range t {
				mx, my = min(mx, c.x), min(my, c.y)
			}
			grid := [8][8]bool{}
			for _, c := range t {
				grid[c.y-my][c.x-mx] = true
			}
			key := ""
			for y := range 8 {
				for x := range 8 {
					if grid[y][x] {
						key += "#"
					} else {
						key += "."
					}
				}
			}
			if best == "" || key < best {
				best = key
			}
		}
		return best
	}
	level := map[string][]cell{canon([]cell{{0, 0}}): {{0, 0}}}
	for size := 1; size < 8; size++ {
		next := map[string][]cell{}
		for _, cs := range level {
			for _, c := range cs {
				for _, d := range []cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					n := cell{c.x + d.x, c.y + d.y}
					dup := false
					for _, o := range cs {
						if o == n {
							dup = true
						}
					}
					if dup {
						continue
					}
					ns := append(append([]cell(nil), cs...), n)
					k := canon(ns)
					if _, ok := next[k]; !ok {
						next[k] = ns
					}
				}
			}
		}
		level = next
	}
	keys := make([]string, 0, len(level))
	for k := range level {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([][]string, 0, len(keys))
	for _, k := range keys {
		var rows []string
		for y := 7; y >= 0; y-- {
			row := strings.TrimRight(k[8*y:8*y+8], ".")
			if row != "" || len(rows) > 0 {
				rows = append(rows, row)
			}
		}
		for len(rows) > 0 && rows[len(rows)-1] == "" {
			rows = rows[:len(rows)-1]
		}
		out = append(out, rows)
	}
	return out
}
