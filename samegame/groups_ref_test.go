package samegame

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// groupsRef is the group finder as it was before the word-at-a-time scan
// (a cell at a time, union-find over runs): the reference the finder is
// checked against.
func (b *Board) groupsRef(dst []Group, minSize int) []Group {
	const m = cellMask
	var s struct {
		run, parent, first [cellMask + 1]uint16
		size               [cellMask + 1]int16
		code               [cellMask + 1]uint64
		link               [cellMask + 1]uint32
	}
	find := func(r int) int {
		for int(s.parent[r&m]) != r {
			p := int(s.parent[r&m])
			s.parent[r&m] = s.parent[p&m]
			r = int(s.parent[r&m])
		}
		return r
	}
	nr, nl := 0, 0
	for x := range int(b.w) {
		base := idx(x, 0)
		end := base + int(b.height[x])
		prev := uint8(0)
		r := 0
		for i := base; i < end; i++ {
			c := b.cells[i&m]
			if c != prev {
				r = nr & m
				nr++
				s.parent[r] = uint16(r)
				s.size[r] = 0
				s.code[r] = 0
				s.first[r] = uint16(i)
				prev = c
			}
			s.run[i&m] = uint16(r)
			s.size[r]++
			s.code[r] ^= cellKey[i&m]
			if b.cells[(i-stride)&m] == c {
				s.link[nl&m] = uint32(r)<<16 | uint32(s.run[(i-stride)&m])
				nl++
			}
		}
	}
	for _, l := range s.link[:nl&m] {
		ra, rb := find(int(l>>16)), find(int(l&0xffff))
		if ra == rb {
			continue
		}
		if rb < ra {
			ra, rb = rb, ra
		}
		s.parent[rb&m] = uint16(ra)
		s.size[ra&m] += s.size[rb&m]
		s.code[ra&m] ^= s.code[rb&m]
	}
	for r := range nr {
		if int(s.parent[r&m]) != r || int(s.size[r&m]) < minSize {
			continue
		}
		f := int(s.first[r&m])
		v := b.cells[f&m]
		dst = append(dst, Group{X: int8(f/stride - 1), Y: int8(f % stride), Color: Color(v) - 1, Size: s.size[r&m], Code: groupCode(s.code[r&m], v)})
	}
	return dst
}

// TestGroupsMatchReference plays random games on boards of every shape
// the finder reads differently (heights of 1 to 20, so one to three words a
// column; widths of 1 to 20; 1 to 10 colours; both rules) and checks, after
// every click, that the groups are the reference finder's: the same
// groups, cells, sizes and codes, in the same order, for both minimum
// sizes; and that GroupAt, a plain flood fill, agrees on each group.
func TestGroupsMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 15))
	boards, clicks := 0, 0
	for _, rules := range []Rules{Standard, Dust} {
		for range 400 {
			w, h := 1+rng.IntN(MaxSize), 1+rng.IntN(MaxSize)
			if boards%4 == 0 {
				w, h = MaxSize, MaxSize
			}
			b := Random(w, h, 1+rng.IntN(MaxColors), rules, rng)
			boards++
			var got, want []Group
			for {
				for _, min := range []int{1, 2} {
					got = b.groups(got[:0], min)
					want = b.groupsRef(want[:0], min)
					if !slices.Equal(got, want) {
						t.Fatalf("%dx%d %v board after %d clicks, min %d:\n%v\ngroups %v\nwant   %v", w, h, rules, clicks, min, b, got, want)
					}
				}
				for _, g := range got {
					if at, ok := b.GroupAt(int(g.X), int(g.Y)); !ok || at != g {
						t.Fatalf("GroupAt(%d,%d) = %v, %v; the finder: %v", g.X, g.Y, at, ok, g)
					}
				}
				moves := b.Moves(nil)
				if len(moves) == 0 {
					break
				}
				b.PlayGroup(moves[rng.IntN(len(moves))])
				clicks++
			}
		}
	}
	t.Logf("%d boards, %d clicks", boards, clicks)
}
