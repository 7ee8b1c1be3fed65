package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// cellCentre returns the page coordinates of the centre of cell i.
func cellCentre(t *testing.T, ctx context.Context, i int) (float64, float64) {
	t.Helper()
	return centreOf(t, ctx, `#board .cell[data-i="`+strconv.Itoa(i)+`"]`)
}

func pieceAt(t *testing.T, ctx context.Context, i int) string {
	t.Helper()
	return value(t, ctx, "piece", chromedp.Evaluate[string](`document.querySelector('#board .cell[data-i="`+strconv.Itoa(i)+`"]').dataset.piece`))
}

// dragAndTurn plays the first two moves of a board of swapped and turned
// pieces (edge-matching, jigsaw): it drags the piece of cell i onto cell j
// (waiting for more as well) and checks that the two swapped, then selects
// a cell by keyboard, turns it with r and checks that its piece turned.
func dragAndTurn(t *testing.T, ctx context.Context, i, j int, more ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	a, b := pieceAt(t, ctx, i), pieceAt(t, ctx, j)
	xi, yi := cellCentre(t, ctx, i)
	xj, yj := cellCentre(t, ctx, j)
	step(t, ctx, fmt.Sprintf("drag cell %d onto cell %d", i, j), append([]chromedp.Action[chromedp.Void]{
		drag(xi, yi, xj, yj),
		waitFor(`document.getElementById('moves').textContent === '1'`, 5*time.Second)}, more...)...)
	if gi, gj := pieceAt(t, ctx, i), pieceAt(t, ctx, j); gi != b || gj != a {
		t.Fatalf("after the drag: cell %d %s, cell %d %s; before %s, %s", i, gi, j, gj, a, b)
	}
	step(t, ctx, "select by keyboard",
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(" "),
		waitFor(`document.querySelector('#board .cell.selected') !== null`, 5*time.Second))
	sel, _ := strconv.Atoi(value(t, ctx, "selected", chromedp.Evaluate[string](`document.querySelector('#board .cell.selected').dataset.i`)))
	before := pieceAt(t, ctx, sel)
	step(t, ctx, "turn by keyboard", chromedp.KeyEvent("r"),
		waitFor(`document.getElementById('moves').textContent === '2'`, 5*time.Second))
	after := pieceAt(t, ctx, sel)
	if p, _, _ := strings.Cut(before, "/"); !strings.HasPrefix(after, p+"/") || after == before {
		t.Fatalf("turned %s into %s", before, after)
	}
}

// TestBrowserEdgeMatch walks the edge-matching page: a drag that swaps
// two tiles, a turn by keyboard, the exact search to the solution, the LP
// with its matrices P, a reload during a running partial search that finds
// it again, and Stop.
func TestBrowserEdgeMatch(t *testing.T) {
	ctx := openPage(t, "/edgematch", 1280, 900, "New puzzle: generated 5x5", 10*time.Second)

	dragAndTurn(t, ctx, 0, 6)

	step(t, ctx, "exact search",
		chromedp.SetValue(chromedp.ID("solver"), "dfs"),
		chromedp.SetValue(chromedp.ID("budget"), "60000"),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent("a"), // Auto's key
		waitFor(statusJS+`.classList.contains('victory')`, 50*time.Second))
	if s := value(t, ctx, "score", chromedp.Text(chromedp.ID("score"))); s != "40" {
		t.Fatalf("score after dfs: %s", s)
	}

	step(t, ctx, "LP on a 6x6",
		chromedp.SetValue(chromedp.ID("gen-size"), "6"),
		// a click in the page, not by the mouse: the notes under the
		// board change as the last search ends, and a mouse click aimed
		// a moment before can land beside the button
		chromedp.Evaluate[chromedp.Void](`document.getElementById('load').click()`),
		waitFor(statusJS+`.textContent.startsWith('New puzzle: generated 6x6')`, 30*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "lp"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`document.querySelectorAll('#lp-iters img').length > 0`, 90*time.Second))
	screenshot(t, ctx, "edgematch.png")

	step(t, ctx, "a long partial search",
		chromedp.SetValue(chromedp.ID("gen-size"), "12"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('load').click()`),
		waitFor(statusJS+`.textContent.startsWith('New puzzle: generated 12x12')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "partial"),
		chromedp.SetValue(chromedp.ID("budget"), "300000"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`document.getElementById('auto-out').textContent.includes('best')`, 30*time.Second))
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('still searching') || `+statusJS+`.textContent.includes('best')`, 20*time.Second),
		waitFor(`document.getElementById('board').querySelectorAll('.cell').length === 144`, 10*time.Second))
	step(t, ctx, "stop",
		waitFor(`!document.getElementById('stop').disabled`, 10*time.Second),
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Search stopped.'`, 20*time.Second))
}

// TestBrowserTileTaps: on the tile pages (gridControls) a tap selects a
// tile, a second tap on it turns it, or lets it go where pieces do not
// turn (a Type 1 jigsaw), and a tap on another cell swaps the two; a tap
// on an edge-matching hint tile is refused with a word.
func TestBrowserTileTaps(t *testing.T) {
	const selected = `(document.querySelector('#board .cell.selected')?.dataset.i ?? 'none')`
	tap := func(t *testing.T, ctx context.Context, what string, i int, cond string) {
		t.Helper()
		step(t, ctx, what, chromedp.Click(chromedp.CSS(`#board .cell[data-i="`+strconv.Itoa(i)+`"]`)), waitFor(cond, 5*time.Second))
	}
	moves := func(n int) string {
		return `document.getElementById('moves').textContent === '` + strconv.Itoa(n) + `'`
	}

	t.Run("edgematch", func(t *testing.T) {
		ctx := openPage(t, "/edgematch", 1280, 900, "New puzzle: generated 5x5", 10*time.Second)
		a, b := pieceAt(t, ctx, 1), pieceAt(t, ctx, 2)
		tap(t, ctx, "select", 1, selected+` === '1'`)
		tap(t, ctx, "turn", 1, moves(1))
		turned := pieceAt(t, ctx, 1)
		if p, _, _ := strings.Cut(a, "/"); !strings.HasPrefix(turned, p+"/") || turned == a {
			t.Fatalf("a second tap turned %s into %s", a, turned)
		}
		tap(t, ctx, "swap", 2, moves(2))
		if got1, got2, sel := pieceAt(t, ctx, 1), pieceAt(t, ctx, 2), value(t, ctx, "selected", chromedp.Evaluate[string](selected)); got1 != b || got2 != turned || sel != "none" {
			t.Fatalf("after the swap: cell 1 %s, cell 2 %s, selected %s; want %s, %s, none", got1, got2, sel, b, turned)
		}
		if !value(t, ctx, "Eternity II listed", chromedp.Evaluate[bool](`document.querySelector('#puzzle option[value="eternity2.txt"]') !== null`)) {
			t.Skip("no data folder: no puzzle with a hint tile")
		}
		step(t, ctx, "Eternity II",
			chromedp.SetValue(chromedp.ID("puzzle"), "eternity2.txt"),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('load').click()`),
			waitFor(`document.querySelectorAll('#board .cell.hint').length === 1`, 20*time.Second))
		hint, _ := strconv.Atoi(value(t, ctx, "hint", chromedp.Evaluate[string](`document.querySelector('#board .cell.hint').dataset.i`)))
		tap(t, ctx, "a hint tile", hint, statusJS+`.textContent === 'That tile is a hint: it stays where it is.'`)
		if sel := value(t, ctx, "selected", chromedp.Evaluate[string](selected)); sel != "none" {
			t.Errorf("a tap on the hint tile selected %s", sel)
		}
	})

	t.Run("jigsaw Type 1", func(t *testing.T) {
		ctx := openPage(t, "/jigsaw", 1280, 900, "New puzzle: sunset 8x8", 15*time.Second)
		step(t, ctx, "Type 1",
			chromedp.SetValue(chromedp.ID("type"), "1"),
			chromedp.Click(chromedp.ID("new")),
			waitFor(statusJS+`.textContent.includes('Type 1')`, 15*time.Second))
		tap(t, ctx, "select", 0, selected+` === '0'`)
		tap(t, ctx, "let go", 0, selected+` === 'none'`)
		tap(t, ctx, "select again", 0, selected+` === '0'`)
		tap(t, ctx, "swap", 9, moves(1)+` && `+selected+` === 'none'`)
	})
}
