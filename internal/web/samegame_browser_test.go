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

// groupJS finds a cell of a group of two or more on the SameGame board:
// "x,y", or "" when there is none.
const groupJS = `(() => {
  const c = (x, y) => document.querySelector('#board .cell[data-x="' + x + '"][data-y="' + y + '"]');
  for (const e of document.querySelectorAll('#board .cell[data-c]')) {
    const x = +e.dataset.x, y = +e.dataset.y;
    for (const n of [c(x + 1, y), c(x, y + 1)]) if (n && n.dataset.c === e.dataset.c) return x + ',' + y;
  }
  return '';
})()`

// TestBrowserSameGame walks the SameGame page as a person would: a click
// by mouse and one by keyboard, NRPA as a job played to the end of the
// game, the best line streaming in and stepped through while a search
// runs, a reload during a running job that finds it again, and Stop.
func TestBrowserSameGame(t *testing.T) {
	ctx := openPage(t, "/samegame", 1280, 860, "New board", 10*time.Second)

	xy := value(t, ctx, "find a group", chromedp.Evaluate[string](groupJS))
	if xy == "" {
		t.Fatal("no group of two on a fresh board")
	}
	x, y, _ := strings.Cut(xy, ",")
	step(t, ctx, "click a group",
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`#board .cell[data-x="%s"][data-y="%s"]`, x, y))),
		waitFor(`document.getElementById('clicks').textContent === '1'`, 5*time.Second))
	score1 := value(t, ctx, "score", chromedp.Evaluate[string](`document.getElementById('board').dataset.score`))
	// The keyboard: move the cursor onto a group and press Enter.
	xy = value(t, ctx, "find a group", chromedp.Evaluate[string](groupJS))
	x, y, _ = strings.Cut(xy, ",")
	xi, _ := strconv.Atoi(x)
	yi, _ := strconv.Atoi(y)
	keys := strings.Repeat(kb.ArrowRight, xi) // from column 0
	step(t, ctx, "keyboard",
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent(strings.Repeat(kb.ArrowUp, 20)),   // to the top row
		chromedp.KeyEvent(strings.Repeat(kb.ArrowLeft, 20)), // to column 0
		chromedp.KeyEvent(keys))
	down := 14 - yi
	step(t, ctx, "keyboard down", chromedp.KeyEvent(strings.Repeat(kb.ArrowDown, down)), chromedp.KeyEvent(kb.Enter),
		waitFor(`document.getElementById('clicks').textContent === '2'`, 5*time.Second))
	if s := value(t, ctx, "score", chromedp.Evaluate[string](`document.getElementById('board').dataset.score`)); s == "" || s < score1 && len(s) <= len(score1) {
		t.Fatalf("score %q after %q", s, score1)
	}

	// Auto: NRPA for 5 s as a job, then its line played to the end.
	before := value(t, ctx, "score", chromedp.Evaluate[string](`document.getElementById('board').dataset.score`))
	step(t, ctx, "auto",
		chromedp.SetValue(chromedp.ID("solver"), "nrpa"),
		chromedp.SetValue(chromedp.ID("budget"), "5000"),
		chromedp.SetValue(chromedp.ID("speed"), "20"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.includes('best score so far')`, 20*time.Second))
	step(t, ctx, "played to the end", waitFor(statusJS+`.classList.contains('victory')`, 60*time.Second))
	final := value(t, ctx, "final", chromedp.Text(chromedp.ID("status")))
	best := value(t, ctx, "best", chromedp.Text(chromedp.ID("stat-score")))
	if !strings.Contains(final, "Final score") || !strings.Contains(final, "by NRPA") {
		t.Fatalf("after Auto: %q (best %q)", final, best)
	}
	// The page's own replay of the search's line adds the search's score
	// to the points made before.
	points, _ := strconv.Atoi(strings.ReplaceAll(strings.Fields(best)[0], ",", ""))
	prior, _ := strconv.Atoi(before)
	total := strconv.Itoa(points + prior)
	if len(total) > 3 {
		total = total[:len(total)-3] + "," + total[len(total)-3:]
	}
	if !strings.Contains(final, "Final score "+total+" ") {
		t.Errorf("final %q, the search's best %q after %d points", final, best, prior)
	}

	// A running job survives a reload, and Stop cancels it.
	step(t, ctx, "new board, long search",
		chromedp.Click(chromedp.ID("deal")),
		waitFor(statusJS+`.textContent.startsWith('New board')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("budget"), "120000"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.includes('best score so far')`, 20*time.Second))
	board := value(t, ctx, "board", chromedp.Evaluate[string](`document.getElementById('board').dataset.board`))
	// The best line streams in while the search runs: its clicks, its
	// next click ringed on the board, and a step through it.
	step(t, ctx, "the line streams in",
		waitFor(`document.getElementById('stat-moves').textContent.includes(',') && +document.getElementById('line-step').max > 1`, 20*time.Second),
		waitFor(`document.querySelectorAll('#board .cell.next').length >= 2`, 5*time.Second),
		chromedp.Click(chromedp.ID("line-next")),
		waitFor(`document.getElementById('board').classList.contains('viewing') && document.getElementById('line-out').textContent.startsWith('board after 1 of')`, 5*time.Second))
	if got := value(t, ctx, "board", chromedp.Evaluate[string](`document.getElementById('board').dataset.board`)); got != board {
		t.Fatalf("stepping through the line changed the game's board: %q, was %q", got, board)
	}
	if shown := value(t, ctx, "cells shown", chromedp.Evaluate[int](`document.querySelectorAll('#board .cell[data-c]').length`)); shown >= 225 {
		t.Fatalf("after one click of the line the board shows %d cells", shown)
	}
	step(t, ctx, "back to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	screenshot(t, ctx, "samegame.png")
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('still searching') || `+statusJS+`.textContent.includes('best score so far')`, 20*time.Second))
	if got := value(t, ctx, "board", chromedp.Evaluate[string](`document.getElementById('board').dataset.board`)); got != board {
		t.Fatalf("after the reload the board is %q, the job's is %q", got, board)
	}
	step(t, ctx, "stop",
		waitFor(`!document.getElementById('stop').disabled`, 10*time.Second),
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Search stopped.'`, 20*time.Second))
}

// TestBrowserNarrow opens every page on a 390 px wide screen: nothing is
// wider than the screen, every game of the menu is on screen (one tap
// away, none scrolled out of sight), no entry wraps, Stop sits beside
// Auto.
func TestBrowserNarrow(t *testing.T) {
	ctx, ts := browserOn(t)
	for _, page := range allPages {
		loadOnPhone(t, ctx, ts.URL+page)
		check := value(t, ctx, "layout", chromedp.Evaluate[string](`(() => {
  const bad = [];
  if (document.documentElement.scrollWidth > 390) bad.push('page ' + document.documentElement.scrollWidth + ' px wide');
  for (const e of document.querySelectorAll('main *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > 391) bad.push(e.tagName + '#' + e.id + ' ends at ' + Math.round(r.right));
  }
  const links = [...document.querySelectorAll('nav a')];
  if (links.length !== 7) bad.push(links.length + ' games in the menu');
  const nav = document.querySelector('nav').getBoundingClientRect();
  for (const a of links) {
    const r = a.getBoundingClientRect();
    if (r.height > 30) bad.push('menu entry ' + a.textContent + ' wraps');
    if (r.left < 0 || r.right > 390 || r.right > nav.right + 1 || r.bottom > nav.bottom + 1) bad.push('menu entry ' + a.textContent + ' out of sight');
  }
  const auto = document.getElementById('auto').getBoundingClientRect(), stop = document.getElementById('stop').getBoundingClientRect();
  if (Math.abs(auto.top - stop.top) > 2) bad.push('Stop under Auto');
  return bad.slice(0, 5).join('; ');
})()`))
		if check != "" {
			t.Errorf("%s at 390 px: %s", page, check)
		}
	}
}

// TestBrowserPhoneBoardAndAuto: on a phone (390 x 844) a page's board and
// its Auto panel fit on the screen together, so that a running search and
// the board it plays on are seen at once (issue 39 item 11: on /gaps the
// Auto panel sat 1,000 px below the board).
func TestBrowserPhoneBoardAndAuto(t *testing.T) {
	ctx, ts := browserOn(t)
	for _, page := range allPages {
		loadOnPhone(t, ctx, ts.URL+page)
		span := value(t, ctx, "span", chromedp.Evaluate[float64](`(() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const auto = document.getElementById('auto').getBoundingClientRect();
  return Math.max(board.bottom, auto.bottom) - Math.min(board.top, auto.top);
})()`))
		if span > 844 {
			t.Errorf("%s at 390 x 844: the board and Auto span %.0f px", page, span)
		}
	}
}

// allPages are the paths of the seven games' pages.
var allPages = []string{"/npuzzle", "/dust", "/samegame", "/edgematch", "/jigsaw", "/gaps", "/tangram"}

// loadOnPhone opens url on a 390 x 844 touch screen and waits for its
// first game.
func loadOnPhone(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	step(t, ctx, "load "+url,
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(url),
		waitFor(statusJS+`.textContent.startsWith('New')`, 10*time.Second))
}
