package npuzzle

import (
	"fmt"
	"sync"
)

// Move pruning by a finite-state machine (Taylor and Korf, "Pruning
// Duplicate Nodes in Depth-First Search", AAAI 1993; the FSM of
// clausecker/24puzzle, built from the duplicate paths of the blank).
//
// IDA* searches a tree: it reaches a board by every path of the blank
// within the bound, and only the move straight back to the parent is left
// out. Two sequences of blank moves from the same cell that leave every
// tile in the same place (a duplicate pair: going round a 2x2 block one way
// or the other) lead to the same board from any board; so does a sequence
// and a shorter one (a cycle). Order the sequences by length, then
// lexicographically by direction (Korf's order); a sequence is redundant
// if an earlier one from the same cell has the same effect. A path that
// contains a redundant sequence is never the first shortest path to its
// board in this order (replace the sequence by the earlier one: the path
// gets shorter, or as long and earlier), so a search that skips the moves
// that complete a redundant sequence still finds, for every board within
// the bound, its first shortest path, and IDA* stays optimal; its node
// counts fall below Korf's.
//
// buildFSM enumerates the sequences up to a length, breadth first, from
// every cell: a sequence is kept when the sequence less its last move and
// the sequence less its first move are kept and its effect (the board it
// makes of a board of distinct tokens) is new; when its effect is not new
// it is redundant, a pattern. The patterns feed an Aho-Corasick automaton
// whose states are the patterns' proper prefixes (with one empty start
// state a cell): the state after a path is its longest suffix that is such
// a prefix, and a move that ends a pattern leads to fsmPruned. A state knows its blank's
// cell, so its moves are indexed like the search's (ops: Korf's order, the
// moves off the board left out).

// fsmPruned is the transition of a move that completes a redundant sequence.
const fsmPruned = -1

// DefaultFSMDepth is a good IDAStar.MovePruning: redundant sequences of
// up to 12 moves (on the 5x5 board 13,833 of them, an automaton of 52,603
// states, built in a few CPU-seconds).
const DefaultFSMDepth = 12

// MaxFSMDepth bounds IDAStar.MovePruning: for 14 moves the construction
// keeps 8.4 million sequences on the 5x5 board (16-34 s, about 1 GB); the
// automaton has 260,320 states.
const MaxFSMDepth = 14

// maxFSMCells bounds the boards with move pruning (6x6): the construction
// keeps a board a sequence, 6 bits a cell (fsmBoard).
const maxFSMCells = 36

// moveFSM is the automaton: next[s][i] is the state after op i of the
// state's cell (fsmPruned: the move is pruned), start[c] the state of a
// path that has none of its moves (the root, with the blank at cell c).
type moveFSM struct {
	next  [][4]int32
	start [maxCells]int32
	depth int
	// patterns counts the redundant sequences found.
	patterns int
}

type fsmKey struct {
	rows, cols, depth int
}

var (
	fsmMu    sync.Mutex
	fsmCache = map[fsmKey]*moveFSM{}
)

// fsmFor returns the automaton of a rows x cols board up to depth moves,
// built once per process.
func fsmFor(rows, cols, depth int) *moveFSM {
	fsmMu.Lock()
	defer fsmMu.Unlock()
	k := fsmKey{rows, cols, depth}
	if m := fsmCache[k]; m != nil {
		return m
	}
	m := buildFSM(rows, cols, depth)
	fsmCache[k] = m
	return m
}

// buildFSM builds the automaton of a rows x cols board for the redundant
// sequences of up to depth moves (see above).
func buildFSM(rows, cols, depth int) *moveFSM {
	if depth < 2 || depth > MaxFSMDepth {
		panic(fmt.Sprintf("npuzzle: FSM depth %d", depth))
	}
	n := rows * cols
	var ops [maxCells][4]int
	for c := range n {
		k := 0
		for _, mv := range korfOrder {
			if t := target(rows, cols, c, mv); t >= 0 {
				ops[c][k] = t
				k++
			}
		}
		for ; k < 4; k++ {
			ops[c][k] = -1
		}
	}
	// A node is a sequence: its blank's cell, the cell before its last
	// move (-1 for none), its length, dead for a redundant one, its
	// children by op, and sfx, the node of the sequence less its first
	// move (kept, by construction; the start of its cell for a sequence
	// of one move).
	type node struct {
		cell, prev int8
		length     uint8
		dead       bool
		sfx        int32
		child      [4]int32
	}
	nodes := make([]node, 0, 1<<16)
	seen := map[fsmBoard]struct{}{}
	var level []int32
	var boards []fsmBoard // the boards of level's nodes
	for c := range n {
		nodes = append(nodes, node{cell: int8(c), prev: -1, sfx: -1, child: [4]int32{-1, -1, -1, -1}})
		level = append(level, int32(c))
		var b fsmBoard
		for x := range n {
			b.set(x, x)
		}
		b.set(fsmStartField, c)
		boards = append(boards, b)
		seen[b] = struct{}{}
	}
	m := &moveFSM{depth: depth}
	for length := 0; length < depth; length++ {
		var nextLevel []int32
		var nextBoards []fsmBoard
		for li, id := range level {
			u := nodes[id]
			for i := range 4 {
				nb := ops[u.cell][i]
				if nb < 0 {
					break
				}
				if nb == int(u.prev) {
					continue
				}
				sfx := int32(nb) // the empty sequence at nb
				if length >= 1 {
					// The sequence less its first move must be kept.
					sfx = nodes[u.sfx].child[i]
					if sfx < 0 || nodes[sfx].dead {
						continue
					}
				}
				child := boards[li] // the blank's token and the tile's swap cells
				blankTok, tileTok := child.get(int(u.cell)), child.get(nb)
				child.set(int(u.cell), tileTok)
				child.set(nb, blankTok)
				cid := int32(len(nodes))
				v := node{cell: int8(nb), prev: u.cell, length: uint8(length + 1), sfx: sfx, child: [4]int32{-1, -1, -1, -1}}
				if _, dup := seen[child]; dup {
					v.dead = true
					m.patterns++
				} else {
					seen[child] = struct{}{}
					nextLevel = append(nextLevel, cid)
					nextBoards = append(nextBoards, child)
				}
				nodes = append(nodes, v)
				nodes[id].child[i] = cid
			}
		}
		level, boards = nextLevel, nextBoards
	}
	seen, boards = nil, nil

	// The automaton has the patterns and their prefixes only (with the
	// empty sequence of each cell): useful nodes, numbered in the order of
	// the nodes (by length). fail[u] is the longest proper suffix of u
	// that is a state, which ends at u's cell.
	state := make([]int32, len(nodes))
	useful := make([]bool, len(nodes))
	for id := len(nodes) - 1; id >= 0; id-- {
		u := &nodes[id]
		useful[id] = u.dead || u.length == 0
		for _, ch := range u.child {
			if ch >= 0 && useful[ch] {
				useful[id] = true
			}
		}
	}
	states := 0
	for id := range nodes {
		state[id] = fsmPruned
		if useful[id] && !nodes[id].dead {
			state[id] = int32(states)
			states++
		}
	}
	m.next = make([][4]int32, states)
	fail := make([]int32, states)
	for c := range n {
		m.start[c] = state[c]
	}
	for id := range nodes {
		u := &nodes[id]
		su := state[id]
		if su < 0 {
			continue
		}
		for i := range 4 {
			nb := ops[u.cell][i]
			ch := u.child[i]
			switch {
			case nb < 0 || nb == int(u.prev):
				m.next[su][i] = fsmPruned
			case ch >= 0 && useful[ch]:
				m.next[su][i] = state[ch] // fsmPruned for a pattern
				if state[ch] >= 0 {
					if u.length == 0 {
						fail[state[ch]] = state[nb] // the empty suffix: the start of its cell
					} else {
						fail[state[ch]] = m.next[fail[su]][i]
					}
				}
			case u.length == 0:
				m.next[su][i] = state[nb]
			default:
				m.next[su][i] = m.next[fail[su]][i]
			}
		}
	}
	return m
}

// trivialFSM returns the automaton that prunes nothing: its states are the
// cells of the blank.
func trivialFSM(rows, cols int) *moveFSM {
	fsmMu.Lock()
	defer fsmMu.Unlock()
	k := fsmKey{rows, cols, 0}
	if m := fsmCache[k]; m != nil {
		return m
	}
	n := rows * cols
	m := &moveFSM{next: make([][4]int32, n)}
	for c := range n {
		m.start[c] = int32(c)
		j := 0
		for _, mv := range korfOrder {
			if t := target(rows, cols, c, mv); t >= 0 {
				m.next[c][j] = int32(t)
				j++
			}
		}
		for ; j < 4; j++ {
			m.next[c][j] = fsmPruned
		}
	}
	fsmCache[k] = m
	return m
}

// fsmBoard is a board of distinct tokens in 6 bits a cell, ten cells a
// word (up to 36 cells), with the cell the sequence started from in field
// fsmStartField: two sequences have the same effect exactly when they
// make the same fsmBoard.
type fsmBoard [4]uint64

const fsmStartField = 37

func (b *fsmBoard) get(c int) int { return int(b[c/10] >> (6 * (c % 10)) & 63) }

func (b *fsmBoard) set(c, v int) {
	w, sh := c/10, 6*(c%10)
	b[w] = b[w]&^(63<<sh) | uint64(v)<<sh
}
