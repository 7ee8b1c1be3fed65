package catalog

import "strings"

// Game is one game of the web app: a page, and the command-line family
// that solves its puzzles. `tessera help`, `tessera help serve` and the web
// app's navigation all read Games.
type Game struct {
	// Kind names the page's API (/api/KIND/...), its saves and its jobs'
	// prefix; Path is the page's address.
	Kind, Path string
	// Title is the page's name in menus; Family the `tessera` command of
	// its puzzles.
	Title, Family string
	// About says in one line what the page offers, for help.
	About string
}

// Games are the web app's games, in the order of its navigation.
var Games = []Game{
	{Kind: "npuzzle", Path: "/npuzzle", Title: "Sliding puzzle", Family: "npuzzle",
		About: "the sliding-tile picture game: built-in or uploaded pictures, boards up to 10x10, hints, Auto with every npuzzle solver"},
	{Kind: "dust", Path: "/dust", Title: "Dust game", Family: "samegame",
		About: "SameGame's fewest-clicks variant on 8 x 6, with the proven fewest clicks to compare with"},
	{Kind: "samegame", Path: "/samegame", Title: "SameGame", Family: "samegame",
		About: "standard SameGame: the 20 standard positions or random boards, Auto with NRPA, NMCS, SP-MCTS, beam or DFS"},
	{Kind: "edgematch", Path: "/edgematch", Title: "Edge-matching", Family: "edgematch",
		About: "clue puzzles, Brendan's sets, Eternity II, generated puzzles; Auto with the exact, partial, LP or SAT search"},
	{Kind: "jigsaw", Path: "/jigsaw", Title: "Jigsaw", Family: "jigsaw",
		About: "square-piece jigsaws of built-in or uploaded pictures, rotations and mixed bags; Auto with the greedy solver or the GA"},
	{Kind: "gaps", Path: "/gaps", Title: "Gaps", Family: "jigsaw",
		About: "fragments with gaps between them (Alphazzle), placed by MCTS with the learned policy and value"},
	{Kind: "tangram", Path: "/tangram", Title: "Tangram", Family: "tangram",
		About: "the seven tans dragged, turned and flipped onto a figure of the set or of your own, checked exactly; Auto with the exact solver or Algorithm 2"},
}

// GameOf returns the game of kind; it panics for an unknown kind (a
// programmer's error: the pages are declared with the kinds of Games).
func GameOf(kind string) Game {
	for _, g := range Games {
		if g.Kind == kind {
			return g
		}
	}
	panic("catalog: no game " + kind)
}

// GameList names the games for a sentence: "the sliding puzzle, ... and
// gaps", their titles in lower case where they are common nouns.
func GameList() string {
	names := make([]string, len(Games))
	for i, g := range Games {
		names[i] = g.Title
		if g.Title != "SameGame" {
			names[i] = strings.ToLower(g.Title[:1]) + g.Title[1:]
		}
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
