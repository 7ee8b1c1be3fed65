package web

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tessera/tangram"
)

// tgTan is a tan as the page's board holds it (data-pieces).
type tgTan struct {
	T tgPoint `json:"t"`
	O int     `json:"o"`
}

func tgBoardTans(t *testing.T, ctx context.Context) []tgTan {
	t.Helper()
	s := value(t, ctx, "read the tans", chromedp.Evaluate[string](`document.getElementById('board').dataset.pieces`))
	var out []tgTan
	if err := json.Unmarshal([]byte(s), &out); err != nil || len(out) != 7 {
		t.Fatalf("the board's tans %q: %v", s, err)
	}
	return out
}

// tgScreen returns where the centre of tan k, moved by (dx, dy) in the
// board's units, is on the screen.
func tgScreen(t *testing.T, ctx context.Context, k int, dx, dy float64) (float64, float64) {
	t.Helper()
	xy := value(t, ctx, "tan on screen", chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
  const poly = document.querySelector('#board polygon.tan[data-k="%d"]');
  const pts = poly.getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number));
  const c = pts.reduce(([x, y], [u, v]) => [x + u / pts.length, y + v / pts.length], [0, 0]);
  const svg = document.getElementById('board');
  const pt = svg.createSVGPoint();
  pt.x = c[0] + %g; pt.y = c[1] + %g;
  const s = pt.matrixTransform(poly.getScreenCTM());
  return [s.x, s.y];
})()`, k, dx, dy)))
	return xy[0], xy[1]
}

func tgFloat(p tgPoint) (float64, float64) {
	pt, _ := p.Point()
	return pt.X.Float64(), pt.Y.Float64()
}

// tgMouseDrag drags tan k by the mouse so that its translation becomes
// want (it snaps there exactly).
func tgMouseDrag(t *testing.T, ctx context.Context, k int, want tgPoint) {
	t.Helper()
	cur := tgBoardTans(t, ctx)[k]
	cx, cy := tgFloat(cur.T)
	wx, wy := tgFloat(want)
	x0, y0 := tgScreen(t, ctx, k, 0, 0)
	x1, y1 := tgScreen(t, ctx, k, wx-cx, wy-cy)
	step(t, ctx, fmt.Sprintf("drag tan %d", k),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1, y1, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft),
		waitFor(fmt.Sprintf(`JSON.stringify(JSON.parse(document.getElementById('board').dataset.pieces)[%d].t) === '%s'`, k, tgJSON(want)), 5*time.Second))
}

// tgOrient turns tan k to orientation o: a tap turns it by 45 degrees
// (and chooses it), then keys r and f.
func tgOrient(t *testing.T, ctx context.Context, k, o int) {
	t.Helper()
	x, y := tgScreen(t, ctx, k, 0, 0)
	step(t, ctx, fmt.Sprintf("tap tan %d", k),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x, y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x, y, chromedp.ButtonLeft),
		waitFor(fmt.Sprintf(`JSON.parse(document.getElementById('board').dataset.pieces)[%d].o === %d`, k, (tgBoardTans(t, ctx)[k].O+1)&7), 5*time.Second))
	cur := tgBoardTans(t, ctx)[k].O // turn 1, unflipped
	if o&8 != 0 {
		step(t, ctx, "flip", chromedp.KeyEvent("f"))
		cur = 8 | (8-cur)&7
	}
	for ; cur != o; cur = cur&8 | (cur+1)&7 {
		step(t, ctx, "turn", chromedp.KeyEvent("r"))
	}
	step(t, ctx, "orientation", waitFor(fmt.Sprintf(`JSON.parse(document.getElementById('board').dataset.pieces)[%d].o === %d`, k, o), 5*time.Second))
}

// tgScreenshot keeps a screenshot of the page as the test's artifact
// name, and as docs/NAME too when docs is set and -update-screenshot asks.
func tgScreenshot(t *testing.T, ctx context.Context, name string, docs bool) {
	t.Helper()
	shot := value(t, ctx, "screenshot", chromedp.CaptureScreenshot())
	paths := []string{filepath.Join(t.ArtifactDir(), name)}
	if docs && *updateScreenshot {
		paths = append(paths, filepath.Join("..", "..", "docs", name))
	}
	for _, path := range paths {
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func tgChooseFigure(t *testing.T, ctx context.Context, category, name string) {
	t.Helper()
	step(t, ctx, "choose "+name,
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const c = document.getElementById('category'); c.value = %q; c.dispatchEvent(new Event('change')); })()`, category)),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`.tg-fig[data-name=%q]`, name))),
		waitFor(statusJS+fmt.Sprintf(`.textContent.startsWith('New figure: %s')`, name), 10*time.Second))
}

// TestBrowserTangram plays the house by hand (taps, keys and drags, each
// tan snapping exactly where the known solution has it) until the server
// says the figure is filled; a reload keeps the game; a save lists it
// solved; Auto with the exact solver lays a solution tan by tan, and
// Algorithm 2 shows its iterates' strip (the triangle: several SDPs). No console error (browser).
func TestBrowserTangram(t *testing.T) {
	ctx := browser(t)
	ts, stop := serveOn(t, filepath.Join(t.TempDir(), "t.db"))
	defer stop()
	step(t, ctx, "load the page",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(ts.URL+"/tangram"),
		waitFor(statusJS+`.textContent.startsWith('New figure')`, 10*time.Second),
		waitFor(`document.querySelectorAll('#board polygon.tan').length === 7`, 5*time.Second))
	tgChooseFigure(t, ctx, "objects", "house")

	// The keyboard: ] chooses the first tan, ] again the second, the
	// arrows move it by half a unit each, exactly.
	before := tgBoardTans(t, ctx)[1]
	step(t, ctx, "keys",
		chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`),
		chromedp.KeyEvent("]"), chromedp.KeyEvent("]"),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowUp),
		waitFor(`document.getElementById('moves').textContent === '3'`, 5*time.Second))
	after := tgBoardTans(t, ctx)[1]
	if want := (tgPoint{before.T[0] + 2, before.T[1], before.T[2] + 1, before.T[3]}); after.T != want || after.O != before.O {
		t.Fatalf("tan 1 after ] ] → → ↑: %v, want %v", after, want)
	}
	step(t, ctx, "back to the tray", chromedp.Click(chromedp.ID("restart")),
		waitFor(`document.getElementById('moves').textContent === '0'`, 5*time.Second))

	house := tgFigureOf(t, "house").solution
	for k, pl := range house.Placements {
		if pl.Orient != 0 {
			tgOrient(t, ctx, k, int(pl.Orient))
		}
		tgMouseDrag(t, ctx, k, tgPointOf(pl.T))
	}
	step(t, ctx, "filled",
		waitFor(`document.getElementById('board').dataset.filled === 'true'`, 10*time.Second),
		waitFor(statusJS+`.textContent.startsWith('Filled!')`, 5*time.Second))

	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(`document.getElementById('board').dataset.filled === 'true'`, 10*time.Second),
		waitFor(`document.getElementById('figure-name').textContent === 'house'`, 5*time.Second))
	step(t, ctx, "save",
		chromedp.SetValue(chromedp.ID("slot"), "my house"),
		chromedp.Click(chromedp.ID("save")),
		waitFor(`[...document.querySelectorAll('#saves li')].some((li) => li.textContent.includes('my house') && li.textContent.includes('solved'))`, 10*time.Second))

	step(t, ctx, "Auto, exact",
		chromedp.Click(chromedp.ID("restart")),
		waitFor(`document.getElementById('board').dataset.filled === 'false'`, 5*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "exact"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.startsWith('Filled!')`, 60*time.Second))
	// The tans laid are the exact solver's, checked by the server.
	var sol = tangram.NewSolution(7)
	for k, tan := range tgBoardTans(t, ctx) {
		p, _ := tan.T.Point()
		sol.Place(k, p, tangram.Orientation(tan.O))
	}
	f := tgFigureOf(t, "house")
	p, _ := tgBoardPuzzle(f.Name, f.Silhouette)
	if err := tangram.Check(p, sol); err != nil {
		t.Fatalf("the board after Auto: %v", err)
	}

	tgChooseFigure(t, ctx, "geometric", "triangle")
	step(t, ctx, "Auto, Algorithm 2",
		chromedp.SetValue(chromedp.ID("solver"), "sdp"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`!document.getElementById('strip-box').hidden`, 90*time.Second),
		waitFor(statusJS+`.textContent.startsWith('Filled!')`, 30*time.Second))
	tgScreenshot(t, ctx, "tangram.png", true)

	// A figure of one's own, pasted, solved by the exact solver; then one
	// drawn by tapping its corners on the grid.
	step(t, ctx, "a pasted figure",
		chromedp.SetValue(chromedp.ID("own-text"), "name bar\nsilhouette 0 0 4 0 4 2 0 2"),
		chromedp.Click(chromedp.ID("own-use")),
		waitFor(statusJS+`.textContent.startsWith('New figure: bar')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "exact"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.startsWith('Filled!')`, 60*time.Second))
	upload := filepath.Join(t.TempDir(), "tower.txt")
	if err := os.WriteFile(upload, []byte("# two by four\nsilhouette 0 0 2 0 2 4 0 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "an uploaded figure",
		chromedp.SetUploadFiles(chromedp.ID("own-file"), []string{upload}),
		waitFor(statusJS+`.textContent.startsWith('New figure: tower')`, 10*time.Second))
	// A picture of the house, turned by 17 degrees, traced by the server.
	pic := filepath.Join(t.TempDir(), "drawn house.png")
	if err := os.WriteFile(pic, tgPicturePNG(t, "house", 0.3), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "an uploaded picture",
		chromedp.SetUploadFiles(chromedp.ID("own-file"), []string{pic}),
		waitFor(statusJS+`.textContent.startsWith('Traced your picture')`, 20*time.Second),
		waitFor(statusJS+`.textContent.includes('every corner snapped')`, time.Second),
		waitFor(`document.getElementById('figure-name').textContent === 'drawn house'`, time.Second))
	step(t, ctx, "draw mode", chromedp.Click(chromedp.ID("draw")))
	for _, c := range [][2]float64{{0, 0}, {4, 0}, {4, 2}, {0, 2}} {
		xy := value(t, ctx, "grid point", chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
  const svg = document.getElementById('board');
  const pt = svg.createSVGPoint();
  pt.x = %g; pt.y = %g;
  const s = pt.matrixTransform(svg.querySelector('g').getScreenCTM());
  return [s.x, s.y];
})()`, c[0], c[1])))
		step(t, ctx, "tap a corner",
			chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, xy[0], xy[1], chromedp.ButtonLeft),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, xy[0], xy[1], chromedp.ButtonLeft))
	}
	step(t, ctx, "four corners drawn", waitFor(`document.querySelectorAll('#board .drawing-pt').length === 4`, 5*time.Second))
	step(t, ctx, "use the drawing",
		chromedp.Click(chromedp.ID("draw-use")),
		waitFor(statusJS+`.textContent.startsWith('New figure: your drawing')`, 10*time.Second))
	if n := value(t, ctx, "the drawn figure", chromedp.Evaluate[float64](`document.querySelector('#board .silhouette').getAttribute('points').trim().split(/\s+/).length`)); n != 4 {
		t.Fatalf("the drawn figure has %v corners, want 4", n)
	}
}

// TestBrowserTangramPhone: at 390 x 844 with touch, the board fits the
// screen's width, the board and Auto fit its height, and a touch drag
// moves a tan from the tray onto the figure, snapped to its corner.
func TestBrowserTangramPhone(t *testing.T) {
	ctx := browser(t)
	ts, stop := serveOn(t, filepath.Join(t.TempDir(), "t.db"))
	defer stop()
	step(t, ctx, "load",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch),
		chromedp.Navigate(ts.URL+"/tangram"),
		waitFor(statusJS+`.textContent.startsWith('New figure')`, 10*time.Second))
	fit := value(t, ctx, "fit", chromedp.Evaluate[[]float64](`(() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const auto = document.getElementById('auto').getBoundingClientRect();
  return [board.left, board.right, Math.max(board.bottom, auto.bottom) - Math.min(board.top, auto.top), document.documentElement.scrollWidth];
})()`))
	if fit[0] < 0 || fit[1] > 390 || fit[2] > 844 || fit[3] > 390 {
		t.Fatalf("at 390 x 844: board from %.0f to %.0f px, board and Auto span %.0f px, page width %.0f", fit[0], fit[1], fit[2], fit[3])
	}
	// small1 (tan 5), unturned, its first vertex onto the figure's first.
	sil := value(t, ctx, "figure", chromedp.Evaluate[string](`JSON.stringify(document.querySelector('.tg-fig[aria-pressed="true"]') && document.querySelector('.tg-fig[aria-pressed="true"]').dataset.name)`))
	var name string
	json.Unmarshal([]byte(sil), &name)
	want := tgPointOf(tgFigureOf(t, name).Silhouette[0])
	cur := tgBoardTans(t, ctx)[5]
	cx, cy := tgFloat(cur.T)
	wx, wy := tgFloat(want)
	x0, y0 := tgScreen(t, ctx, 5, 0, 0)
	x1, y1 := tgScreen(t, ctx, 5, wx-cx, wy-cy)
	touch := func(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			var pts []*input.TouchPoint
			if typ != input.DispatchTouchEventTypeTouchEnd {
				pts = []*input.TouchPoint{{X: x, Y: y}}
			}
			_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	step(t, ctx, "touch drag",
		touch(input.DispatchTouchEventTypeTouchStart, x0, y0),
		touch(input.DispatchTouchEventTypeTouchMove, (x0+x1)/2, (y0+y1)/2),
		touch(input.DispatchTouchEventTypeTouchMove, x1, y1),
		touch(input.DispatchTouchEventTypeTouchEnd, x1, y1),
		waitFor(`document.getElementById('moves').textContent === '1'`, 5*time.Second),
		waitFor(statusJS+`.textContent.includes('of 7 tans on the figure')`, 5*time.Second))
	if got := tgBoardTans(t, ctx)[5]; got.T != want || got.O != 0 {
		t.Fatalf("after the touch drag: tan 5 at %v %d, want %v 0", got.T, got.O, want)
	}
	x, y := tgScreen(t, ctx, 2, 0, 0)
	step(t, ctx, "a tap turns",
		chromedp.Evaluate[chromedp.Void](statusJS+`.textContent = ''`),
		touch(input.DispatchTouchEventTypeTouchStart, x, y),
		touch(input.DispatchTouchEventTypeTouchEnd, x, y),
		waitFor(`JSON.parse(document.getElementById('board').dataset.pieces)[2].o === 1`, 5*time.Second),
		waitFor(statusJS+`.textContent.includes('of 7 tans on the figure')`, 5*time.Second))
	tgScreenshot(t, ctx, "tangram-phone.png", false)
}

// TestBrowserTangramReloadDuringAuto: Auto's job waits for a solver slot
// (the test holds the only one); a reload finds it again, and when the
// slot is free the solution is laid and the figure filled.
func TestBrowserTangramReloadDuringAuto(t *testing.T) {
	ctx := browser(t)
	s := mustNew(t, Config{Store: openStore(t, ""), MaxBusy: 1})
	ts, stop := startTestServer(t, s)
	defer stop()
	if err := s.acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	held := true
	defer func() {
		if held {
			s.release()
		}
	}()
	step(t, ctx, "load",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Navigate(ts.URL+"/tangram"),
		waitFor(statusJS+`.textContent.startsWith('New figure')`, 10*time.Second))
	tgChooseFigure(t, ctx, "objects", "boat")
	step(t, ctx, "Auto waits for the slot",
		chromedp.SetValue(chromedp.ID("solver"), "exact"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(`localStorage.getItem('tessera.tangram.job') !== null`, 10*time.Second))
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('found again after the reload')`, 10*time.Second),
		waitFor(`document.getElementById('figure-name').textContent === 'boat'`, 5*time.Second),
		waitFor(`document.getElementById('stop').disabled === false`, 5*time.Second))
	held = false
	s.release()
	step(t, ctx, "filled",
		waitFor(statusJS+`.textContent.startsWith('Filled!')`, 60*time.Second),
		waitFor(`document.getElementById('board').dataset.filled === 'true'`, 5*time.Second))
}
