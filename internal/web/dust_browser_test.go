package web

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tessera/samegame"
)

// dealt deals the board of seed on the dust page and returns it.
func dealt(t *testing.T, ctx context.Context, seed uint64) string {
	t.Helper()
	want := dustLine(dealDust(seed))
	step(t, ctx, "deal",
		chromedp.SetValue(chromedp.ID("seed"), fmt.Sprint(seed)),
		chromedp.Click(chromedp.ID("deal-seed")),
		waitFor(fmt.Sprintf(`document.getElementById('board').dataset.board === %q && %s.textContent.startsWith('New board')`, want, statusJS), 10*time.Second))
	return want
}

// dustPageDealt opens the dust page in the browser and deals the board of
// seed, which it returns.
func dustPageDealt(t *testing.T, seed uint64) (context.Context, string) {
	t.Helper()
	ctx, ts := browserOn(t)
	step(t, ctx, "load the page",
		chromedp.Navigate(ts.URL+"/dust"),
		waitFor(statusJS+`.textContent.startsWith('New board')`, 10*time.Second))
	return ctx, dealt(t, ctx, seed)
}

// TestBrowserDustPlay plays the proven shortest solution of a dealt board
// by clicking the cells, checks every board the page shows against package
// samegame's rules, saves half way (the server replays the clicks), undoes,
// and ends with the page's verdict against the optimum.
func TestBrowserDustPlay(t *testing.T) {
	ctx, ts := browserOn(t)
	step(t, ctx, "load the page",
		chromedp.Navigate(ts.URL+"/dust"),
		chromedp.WaitVisible(chromedp.CSS("#board .cell[data-c]")),
		waitFor(statusJS+`.textContent.startsWith('New board')`, 10*time.Second))

	start := dealt(t, ctx, 3)
	b, err := samegame.ParseBoard(start, samegame.Dust)
	if err != nil || b.Width() != 8 || b.Height() != 6 {
		t.Fatalf("dealt board %q: %v", start, err)
	}
	sol, err := samegame.Exact{}.Solve(t.Context(), b)
	if err != nil || !sol.Optimal {
		t.Fatalf("exact: %v", err)
	}
	want := b.Clone()
	for i, m := range sol.Moves {
		step(t, ctx, fmt.Sprintf("click %v", m), chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-x="%d"][data-y="%d"]`, m.X, m.Y))))
		if _, err := want.Play(m); err != nil {
			t.Fatal(err)
		}
		if got := boardOf(t, ctx); got != dustLine(want) {
			t.Fatalf("after click %d (%v) the page shows %s, the rules give %s", i+1, m, got, dustLine(want))
		}
		if i == 2 {
			step(t, ctx, "save",
				chromedp.SendKeys(chromedp.ID("slot"), "half"),
				chromedp.Click(chromedp.ID("save")),
				waitFor(statusJS+`.textContent === 'Saved as “half”.'`, 10*time.Second))
			before := boardOf(t, ctx)
			step(t, ctx, "undo and redo", chromedp.Click(chromedp.ID("undo")))
			if got := value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks"))); got != "2" {
				t.Errorf("clicks after undo: %s", got)
			}
			step(t, ctx, "redo", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-x="%d"][data-y="%d"]`, m.X, m.Y))))
			if got := boardOf(t, ctx); got != before {
				t.Fatalf("undo and the same click: %s, want %s", got, before)
			}
		}
	}
	step(t, ctx, "victory", waitFor(statusJS+`.textContent.includes('the fewest possible!')`, 40*time.Second))
	status := value(t, ctx, "status", chromedp.Text(chromedp.ID("status")))
	if !strings.HasPrefix(status, fmt.Sprintf("Cleared: %d clicks in ", sol.Clicks)) {
		t.Errorf("status %q", status)
	}
	if got := value(t, ctx, "optimum", chromedp.Text(chromedp.ID("optimum"))); got != fmt.Sprint(sol.Clicks) {
		t.Errorf("optimum shown as %q, want %d", got, sol.Clicks)
	}

	// The saved game comes back with its three clicks.
	step(t, ctx, "load",
		chromedp.Click(chromedp.CSS(`#saves li[data-name="half"] button.load`)),
		waitFor(statusJS+`.textContent.startsWith('Loaded “half”')`, 10*time.Second))
	if got := value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks"))); got != "3" {
		t.Errorf("loaded clicks %s, want 3", got)
	}
	half, _ := samegame.Replay(b, sol.Moves[:3])
	if got := boardOf(t, ctx); got != dustLine(half.Board) {
		t.Errorf("loaded board %s, want %s", got, dustLine(half.Board))
	}
}

// TestBrowserDustAuto lets a solver finish a game, and takes the README's
// screenshot of the page half way (docs/dust.png with -update-screenshot).
func TestBrowserDustAuto(t *testing.T) {
	ctx := dustAutoPlaying(t, "2", 4)
	screenshot(t, ctx, "dust.png")
	step(t, ctx, "speed up", chromedp.SetValue(chromedp.ID("speed"), "10"),
		waitFor(statusJS+`.classList.contains('victory')`, 40*time.Second))
	status := value(t, ctx, "status", chromedp.Text(chromedp.ID("status")))
	length := value(t, ctx, "length", chromedp.Text(chromedp.ID("stat-length")))
	var n int
	if _, err := fmt.Sscanf(length, "%d clicks (the fewest)", &n); err != nil {
		t.Fatalf("solution shown as %q: %v", length, err)
	}
	if want := fmt.Sprintf("Cleared by Exact: %d clicks: the fewest possible!", n); status != want {
		t.Errorf("status %q, want %q", status, want)
	}
	if got := boardOf(t, ctx); got != "......../......../......../......../......../........" {
		t.Errorf("board after Auto: %s", got)
	}
}

// TestBrowserDustVerdict: once the fewest clicks are proven, Hint follows
// the proven line ("the fewest", as many clicks to go as the counter
// says); after two clicks off it, Auto with the exact solver clears the
// rest and the verdict tells the player's clicks from the solver's.
func TestBrowserDustVerdict(t *testing.T) {
	ctx, start := dustPageDealt(t, 3)
	b, _ := samegame.ParseBoard(start, samegame.Dust)
	sol, err := samegame.Exact{}.Solve(t.Context(), b)
	if err != nil || !sol.Optimal {
		t.Fatalf("exact: %v", err)
	}
	step(t, ctx, "the proof", waitFor(fmt.Sprintf(`document.getElementById('optimum').textContent === '%d'`, sol.Clicks), 40*time.Second))
	step(t, ctx, "hint", chromedp.Click(chromedp.ID("hint")),
		waitFor(statusJS+`.textContent.startsWith('Hint:')`, 20*time.Second))
	if got, want := value(t, ctx, "status", chromedp.Text(chromedp.ID("status"))), fmt.Sprintf("%d clicks to go (the fewest).", sol.Clicks); !strings.HasSuffix(got, want) {
		t.Errorf("hint %q, want it to end %q", got, want)
	}
	// Two clicks, the first off the proven line.
	for _, g := range b.Moves(nil) {
		if g.Move() != sol.Moves[0] {
			step(t, ctx, "a click", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-x="%d"][data-y="%d"]`, g.X, g.Y))))
			b.Play(g.Move())
			break
		}
	}
	g := b.Moves(nil)[0]
	step(t, ctx, "a second click", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-x="%d"][data-y="%d"]`, g.X, g.Y))))
	step(t, ctx, "auto", chromedp.SetValue(chromedp.ID("solver"), "exact"), chromedp.SetValue(chromedp.ID("speed"), "10"),
		chromedp.Click(chromedp.ID("auto")), waitFor(statusJS+`.classList.contains('victory')`, 60*time.Second))
	status := value(t, ctx, "status", chromedp.Text(chromedp.ID("status")))
	var rest, all int
	if _, err := fmt.Sscanf(status, "Cleared: your 2 clicks, then Exact's %d, %d in all", &rest, &all); err != nil || all != rest+2 {
		t.Fatalf("verdict %q (%v)", status, err)
	}
	if all > sol.Clicks && !strings.Contains(status, fmt.Sprintf("%d more than the fewest from the dealt board, %d", all-sol.Clicks, sol.Clicks)) {
		t.Errorf("verdict %q", status)
	}
}

// TestBrowserReloadKeepsGame: a reload keeps the game of every page with a
// board of its own (the gaps page kept its before): the board, and on the
// dust and SameGame pages the clicks made (issue 39 item 6).
func TestBrowserReloadKeepsGame(t *testing.T) {
	ctx, ts := browserOn(t)
	for _, page := range []string{"/dust", "/samegame", "/npuzzle", "/edgematch", "/jigsaw"} {
		step(t, ctx, "load "+page, chromedp.Navigate(ts.URL+page),
			waitFor(statusJS+`.textContent.startsWith('New')`, 20*time.Second))
		clicks := ""
		if page == "/dust" || page == "/samegame" {
			for range 2 {
				step(t, ctx, "a click", chromedp.Evaluate[chromedp.Void](`(() => {
  const cells = [...document.querySelectorAll('#board .cell[data-c]')];
  for (const c of cells) {
    const x = c.dataset.x, y = c.dataset.y, col = c.dataset.c;
    const n = cells.filter((d) => d.dataset.c === col && Math.abs(d.dataset.x - x) + Math.abs(d.dataset.y - y) === 1);
    if (n.length > 0) { c.click(); return; }
  }
})()`))
			}
			clicks = value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks")))
		}
		before := boardOf(t, ctx)
		step(t, ctx, "reload "+page, chromedp.Reload(),
			waitFor(statusJS+`.textContent.startsWith('Your game, as you left it')`, 20*time.Second))
		if got := boardOf(t, ctx); got != before || got == "" {
			t.Errorf("%s after a reload: %s, before %s", page, got, before)
		}
		if clicks != "" {
			if got := value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks"))); got != clicks || clicks == "0" {
				t.Errorf("%s: %s clicks after a reload, %s before", page, got, clicks)
			}
		}
	}
}

// TestBrowserDustCertainty turns the certainty board on (the blog's
// figure): every cell shows the shipped network's probability for its
// cluster, in percent, coloured through the --cert variable; after a click
// the board's new certainty replaces it, and the button turns it off.
func TestBrowserDustCertainty(t *testing.T) {
	ctx, start := dustPageDealt(t, 3)
	check := func(board string) {
		t.Helper()
		step(t, ctx, "certainty of "+board, waitFor(fmt.Sprintf(`document.getElementById('board').dataset.certainty === %q`, board), 20*time.Second))
		b, _ := samegame.ParseBoard(board, samegame.Dust)
		want, best := certaintyOf(t, board)
		got := value(t, ctx, "cells", chromedp.Evaluate[[]map[string]string](`[...document.querySelectorAll('#board .cell')].map((e) => ({
  x: e.dataset.x, y: e.dataset.y, cert: e.dataset.cert || '', v: e.style.getPropertyValue('--cert'),
  bg: getComputedStyle(e).backgroundColor, after: getComputedStyle(e, '::after').content }))`))
		shown := 0
		for _, c := range got {
			var x, y int
			fmt.Sscan(c["x"], &x)
			fmt.Sscan(c["y"], &y)
			v := want[y*b.Width()+x]
			if v < 0 {
				if c["cert"] != "" {
					t.Errorf("empty cell %d,%d shows %q", x, y, c["cert"])
				}
				continue
			}
			if w := fmt.Sprintf("%02d", min(int(math.Round(v*100)), 99)); c["cert"] != w || c["after"] != `"`+w+`"` {
				t.Errorf("cell %d,%d shows %q (%s), want %s", x, y, c["cert"], c["after"], w)
			}
			if w := fmt.Sprintf("%.3f", v/best); c["v"] != w {
				t.Errorf("cell %d,%d: --cert %q, want %s", x, y, c["v"], w)
			}
			shown++
		}
		if shown != b.Cells() {
			t.Errorf("%d cells with a certainty, the board has %d", shown, b.Cells())
		}
	}
	step(t, ctx, "certainty on", chromedp.Click(chromedp.ID("certainty")))
	check(start)
	// The best cell is green and a cell far below it red: the colours follow --cert.
	colours := value(t, ctx, "colours", chromedp.Evaluate[[]string](`(() => {
  const cells = [...document.querySelectorAll('#board .cell[data-cert]')];
  const v = (e) => Number(e.style.getPropertyValue('--cert'));
  cells.sort((a, b) => v(b) - v(a));
  return [getComputedStyle(cells[0]).backgroundColor, getComputedStyle(cells[cells.length - 1]).backgroundColor];
})()`))
	var r0, g0, r1, g1 int
	fmt.Sscanf(colours[0], "rgb(%d, %d", &r0, &g0)
	fmt.Sscanf(colours[1], "rgb(%d, %d", &r1, &g1)
	if g0 <= r0 || r1 <= g1 {
		t.Errorf("best cell %s, worst %s: want green and red", colours[0], colours[1])
	}
	b, _ := samegame.ParseBoard(start, samegame.Dust)
	m := b.Moves(nil)[0]
	step(t, ctx, "a click", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-x="%d"][data-y="%d"]`, m.X, m.Y))))
	b.PlayGroup(m)
	check(dustLine(b))
	step(t, ctx, "certainty off", chromedp.Click(chromedp.ID("certainty")),
		waitFor(`!document.getElementById('board').classList.contains('certainty') && document.querySelectorAll('#board .cell[data-cert]').length === 0`, 5*time.Second))
}

// dustAutoPlaying opens the dust page on the board of seed 9 and starts
// Auto with the exact solver at speed clicks a second; it returns once the
// playback has made click clicks.
func dustAutoPlaying(t *testing.T, speed string, click int) context.Context {
	t.Helper()
	ctx, ts := browserOn(t)
	step(t, ctx, "load the page",
		chromedp.EmulateViewport(1280, 860),
		chromedp.Navigate(ts.URL+"/dust"),
		waitFor(statusJS+`.textContent.startsWith('New board')`, 10*time.Second))
	dealt(t, ctx, 9)
	step(t, ctx, "auto with the exact solver",
		chromedp.SetValue(chromedp.ID("solver"), "exact"),
		chromedp.SetValue(chromedp.ID("speed"), speed),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+fmt.Sprintf(`.textContent.includes('click %d of')`, click), 40*time.Second))
	return ctx
}

// TestBrowserDustAutoStop: Stop while Auto plays its solution ends the
// playback at once: the status says so, and no more clicks come.
func TestBrowserDustAutoStop(t *testing.T) {
	ctx := dustAutoPlaying(t, "1", 1)
	step(t, ctx, "stop",
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Auto stopped: your turn.'`, 5*time.Second))
	clicks := value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks")))
	board := boardOf(t, ctx)
	step(t, ctx, "a moment", chromedp.Sleep(2*time.Second))
	if c, b := value(t, ctx, "clicks", chromedp.Text(chromedp.ID("clicks"))), boardOf(t, ctx); c != clicks || b != board || c == "0" {
		t.Errorf("after Stop: %s clicks, board %s; at Stop %s, %s", c, b, clicks, board)
	}
}
