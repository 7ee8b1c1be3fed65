package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserJigsaw walks the jigsaw page: a drag that swaps two pieces, a
// turn by keyboard, the genetic algorithm to the end (each generation's
// layout drawn, the score and the wrong joins shown), the page at 390
// pixels, a reload during a long solve that finds it again, and Stop.
func TestBrowserJigsaw(t *testing.T) {
	ctx := openPage(t, "/jigsaw", 1280, 900, "New puzzle: sunset 8x8, 64 pieces of 60 px, Type 2", 15*time.Second)
	// A fresh scramble is not a red grid: wrong joins are marked on request.
	if n := value(t, ctx, "marks", chromedp.Evaluate[int](`document.querySelectorAll('#board .cell.we, #board .cell.ws').length`)); n != 0 {
		t.Errorf("a fresh scramble shows %d wrong joins marked", n)
	}
	step(t, ctx, "mark wrong joins", chromedp.Click(chromedp.ID("marks")),
		waitFor(`document.querySelectorAll('#board .cell.we, #board .cell.ws').length > 0`, 5*time.Second))

	dragAndTurn(t, ctx, 0, 9,
		waitFor(`document.getElementById('board').dataset.scored === '1'`, 10*time.Second))

	step(t, ctx, "the genetic algorithm to the end",
		chromedp.SetValue(chromedp.ID("solver"), "ga"),
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent("a"), // Auto's key
		waitFor(`!document.getElementById('auto').disabled && /Perfect|Done/.test(`+statusJS+`.textContent)`, 60*time.Second))
	if g := value(t, ctx, "generations", chromedp.Evaluate[string](`document.getElementById('auto-out').dataset.generation`)); g != "101" {
		t.Fatalf("generations: %s", g)
	}

	// The page at a phone's width: nothing wider than the screen.
	step(t, ctx, "390 pixels",
		chromedp.EmulateViewport(390, 844),
		waitFor(`document.documentElement.scrollWidth <= 390`, 5*time.Second),
		chromedp.EmulateViewport(1280, 900))

	step(t, ctx, "a mixed bag of two",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#pictures input[value="mosaic"]').click()`),
		chromedp.SetValue(chromedp.ID("piece"), "80"),
		chromedp.Click(chromedp.ID("new")),
		waitFor(statusJS+`.textContent.startsWith('New puzzle: sunset 6x6 + mosaic 6x6')`, 15*time.Second),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`!document.getElementById('auto').disabled && /Perfect|Done/.test(`+statusJS+`.textContent)`, 60*time.Second))
	step(t, ctx, "scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	screenshot(t, ctx, "jigsaw.png")

	step(t, ctx, "a long solve",
		// a bag of two pictures, 800 pieces: a minute or so of work
		chromedp.Evaluate[chromedp.Void](`for (const c of document.querySelectorAll('#pictures input')) c.checked = c.value === 'glass' || c.value === 'mandelbrot'`),
		chromedp.SetValue(chromedp.ID("piece"), "24"),
		chromedp.Click(chromedp.ID("new")),
		waitFor(statusJS+`.textContent.startsWith('New puzzle: ') && `+statusJS+`.textContent.includes(', 800 pieces of 24 px')`, 20*time.Second),
		chromedp.SetValue(chromedp.ID("budget"), "600000"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`Number(document.getElementById('auto-out').dataset.generation) > 0`, 60*time.Second))
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('still searching') || `+statusJS+`.textContent.includes('generation')`, 30*time.Second))
	step(t, ctx, "stop",
		waitFor(`!document.getElementById('stop').disabled`, 10*time.Second),
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Search stopped.'`, 20*time.Second))
}
