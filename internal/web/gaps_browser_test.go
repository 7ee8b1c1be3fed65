package web

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// gapsCellsOf returns the board the gaps page shows: the cell of each
// patch, -1 in the tray.
func gapsCellsOf(t *testing.T, ctx context.Context) []int {
	t.Helper()
	s := value(t, ctx, "cells", chromedp.Evaluate[string](`document.getElementById('board').dataset.cells`))
	var out []int
	for _, f := range strings.Fields(s) {
		c, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("cells %q", s)
		}
		out = append(out, c)
	}
	return out
}

// TestBrowserGaps walks the gaps page as a person would: a patch dragged
// onto the board, one tapped then placed, one placed by keys, the rest put
// in their true cells for a perfect score; MCTS run to the end and its
// placements stepped through; a reload during a running search that finds
// it again, and Stop. The screenshot (docs/gaps.png with
// -update-screenshot) shows a 4x4 search mid-way, the policy's heat over
// the empty cells.
func TestBrowserGaps(t *testing.T) {
	skipGomlxUnderRace(t)
	ctx := openPage(t, "/gaps", 1440, 900, "New 3x3 puzzle", 20*time.Second,
		waitFor(`document.querySelectorAll('#tray .patch').length === 9`, 5*time.Second))

	// The tray's first patch placed three ways: a drag onto cell 4; a tap
	// on it, then on cell 0; keys (Enter in the tray picks it up, the
	// arrows take the cursor from cell 0 to cell 2, Enter puts it down).
	for n, way := range []struct {
		how  string
		cell int
		play func(patch string) []chromedp.Action[chromedp.Void]
	}{
		{"drag", 4, func(patch string) []chromedp.Action[chromedp.Void] {
			x0, y0 := centreOf(t, ctx, `#tray .patch[data-p="`+patch+`"]`)
			x1, y1 := centreOf(t, ctx, `#board .cell[data-i="4"]`)
			return []chromedp.Action[chromedp.Void]{drag(x0, y0, x1, y1)}
		}},
		{"taps", 0, func(patch string) []chromedp.Action[chromedp.Void] {
			return []chromedp.Action[chromedp.Void]{
				chromedp.Click(chromedp.CSS(`#tray .patch[data-p="` + patch + `"]`)),
				waitFor(`document.querySelector('#tray .patch.selected') !== null`, 5*time.Second),
				chromedp.Click(chromedp.CSS(`#board .cell[data-i="0"]`))}
		}},
		{"keys", 2, func(string) []chromedp.Action[chromedp.Void] {
			return []chromedp.Action[chromedp.Void]{
				chromedp.Evaluate[chromedp.Void](`document.getElementById('tray').focus()`),
				chromedp.KeyEvent(kb.Enter),
				waitFor(`document.activeElement === document.getElementById('board')`, 5*time.Second),
				chromedp.KeyEvent(kb.ArrowRight + kb.ArrowRight),
				chromedp.KeyEvent(kb.Enter)}
		}},
	} {
		patch := value(t, ctx, "next patch", chromedp.Evaluate[string](`document.querySelector('#tray .patch').dataset.p`))
		p, _ := strconv.Atoi(patch)
		step(t, ctx, "place a patch by "+way.how, append(way.play(patch),
			waitFor(fmt.Sprintf(`document.getElementById('placed').textContent === '%d'`, n+1), 5*time.Second))...)
		if cells := gapsCellsOf(t, ctx); cells[p] != way.cell {
			t.Fatalf("after the %s patch %d is in %d, want %d: %v", way.how, p, cells[p], way.cell, cells)
		}
	}

	// The rest in their true cells (the truth rebuilt from the puzzle the
	// page keeps), by taps: a perfect score.
	var kept struct {
		Puzzle gapsRef `json:"puzzle"`
	}
	raw := value(t, ctx, "kept puzzle", chromedp.Evaluate[string](`localStorage.getItem('tessera.gaps.puzzle')`))
	if err := json.Unmarshal([]byte(raw), &kept); err != nil {
		t.Fatal(err)
	}
	pz, err := gapsPuzzle(kept.Puzzle)
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range pz.Truth {
		if gapsCellsOf(t, ctx)[p] == c {
			continue
		}
		sel := `#tray .patch[data-p="` + strconv.Itoa(p) + `"]`
		if value(t, ctx, "in tray", chromedp.Evaluate[bool](`document.querySelector('`+sel+`') === null`)) {
			sel = `#board .patch[data-p="` + strconv.Itoa(p) + `"]`
		}
		step(t, ctx, "place patch "+strconv.Itoa(p),
			chromedp.Click(chromedp.CSS(sel)),
			chromedp.Click(chromedp.CSS(`#board .cell[data-i="`+strconv.Itoa(c)+`"]`)),
			waitFor(`document.getElementById('board').dataset.cells.split(' ')[`+strconv.Itoa(p)+`] === '`+strconv.Itoa(c)+`'`, 5*time.Second))
	}
	step(t, ctx, "perfect", waitFor(statusJS+`.classList.contains('victory') && `+statusJS+`.textContent.startsWith('Perfect!')`, 10*time.Second))

	// MCTS to the end, its placements streaming, then stepped through.
	step(t, ctx, "mcts to the end",
		chromedp.SetValue(chromedp.ID("solver"), "mcts"),
		chromedp.SetValue(chromedp.ID("reward"), "gt"),
		chromedp.SetValue(chromedp.ID("pace"), "300"),
		chromedp.SetValue(chromedp.ID("sims"), "40"),
		chromedp.SetValue(chromedp.ID("attempts"), "3"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.includes('placement')`, 30*time.Second),
		waitFor(`document.querySelectorAll('#board .heat').length > 0`, 10*time.Second),
		waitFor(`!`+statusJS+`.classList.contains('busy')`, 90*time.Second))
	final := value(t, ctx, "final", chromedp.Text(chromedp.ID("status")))
	if !strings.Contains(final, "Alphazzle MCTS: ") || !strings.Contains(final, "Step through its placements") {
		t.Fatalf("after MCTS: %q", final)
	}
	answer := gapsCellsOf(t, ctx)
	if len(answer) != 9 || slices.Contains(answer, -1) {
		t.Fatalf("answer shown %v", answer)
	}
	step(t, ctx, "step back through the placements",
		chromedp.Click(chromedp.ID("view-prev")),
		waitFor(`document.querySelectorAll('#board .heat').length === 1 && document.querySelector('#board .cell.chosen') !== null`, 5*time.Second),
		chromedp.SetValue(chromedp.ID("view-step"), "0"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('view-step').dispatchEvent(new Event('input'))`),
		waitFor(`document.querySelectorAll('#board .heat').length === 9`, 5*time.Second))
	if got := value(t, ctx, "V", chromedp.Text(chromedp.ID("stat-value"))); got == "–" || got == "" {
		t.Fatalf("V's estimate shown as %q", got)
	}
	step(t, ctx, "back to my board",
		chromedp.Click(chromedp.ID("view-close")),
		waitFor(`document.getElementById('board').classList.contains('solved')`, 5*time.Second))

	// A 4x4 search paced at 2 s a placement: the screenshot, a
	// reload that finds it again, and Stop.
	step(t, ctx, "a 4x4 puzzle of the stained glass",
		chromedp.Click(chromedp.CSS(`.pic[data-id="glass"]`)),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 puzzle: Stained glass')`, 20*time.Second),
		chromedp.SetValue(chromedp.ID("grid"), "4"),
		waitFor(statusJS+`.textContent.startsWith('New 4x4 puzzle: Stained glass')`, 20*time.Second),
		chromedp.SetValue(chromedp.ID("reward"), "predicted"),
		chromedp.SetValue(chromedp.ID("pace"), "2000"),
		chromedp.SetValue(chromedp.ID("attempts"), "1"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.includes('placement 4 of 16')`, 90*time.Second))
	screenshot(t, ctx, "gaps.png")
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('still searching') || `+statusJS+`.textContent.includes('placement')`, 20*time.Second),
		waitFor(`document.querySelectorAll('#board .cell').length === 16 && document.querySelectorAll('#board .heat').length > 0`, 20*time.Second))
	step(t, ctx, "stop",
		waitFor(`!document.getElementById('stop').disabled`, 10*time.Second),
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Search stopped.'`, 20*time.Second),
		waitFor(`document.querySelectorAll('#board .heat').length === 0`, 5*time.Second))
}
