package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tessera/internal/catalog"
)

// TestBrowserWalk walks every page of the menu as a new player would, at a
// desktop size and at a phone's (390x844): a fresh browser profile opens
// the page, the player clicks the middle of the board, the page is
// reloaded, and the game must come back as it was (the state the page
// keeps for a reload, clocks aside, is the same before and after: a page
// that lost the game deals a new one). At 390 px the page must not scroll
// sideways and its board and Auto button must be reachable. watchConsole
// fails the test on any console error or CSP violation. With
// TESSERA_SCREENSHOTS=DIR each page is saved before and after the reload
// (docs/screenshots holds the last run's). Fourteen page loads take about
// a minute, so the walk runs with TESSERA_TEST_FULL=1 (as in .ci/run) or
// TESSERA_SCREENSHOTS.
func TestBrowserWalk(t *testing.T) {
	shots := os.Getenv("TESSERA_SCREENSHOTS")
	if os.Getenv("TESSERA_TEST_FULL") == "" && shots == "" {
		t.Skip("the walk of every page runs with TESSERA_TEST_FULL=1 (as .ci/run sets it) or TESSERA_SCREENSHOTS=DIR")
	}
	if raceEnabled {
		t.Skip("skipped under -race: the sliding page's database build outlasts the waits")
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 800}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			ts, stop := serveOn(t, filepath.Join(t.TempDir(), "t.db"))
			defer stop()
			for _, g := range catalog.Games {
				ctx := browser(t) // a new player: a fresh profile for every page
				key := "tessera." + g.Kind + ".game"
				kept := func(what string) map[string]any {
					t.Helper()
					s := value(t, ctx, what, chromedp.Evaluate[string](
						`dispatchEvent(new Event('pagehide')), localStorage.getItem('`+key+`') || ''`))
					var st map[string]any
					if s == "" || json.Unmarshal([]byte(s), &st) != nil {
						t.Fatalf("%s %s: no game kept under %s (%q)", g.Path, what, key, s)
					}
					for k := range st { // clocks run on
						if strings.Contains(k, "elapsed") || strings.HasSuffix(k, "_ms") || strings.Contains(k, "time") {
							delete(st, k)
						}
					}
					return st
				}
				ready := waitFor(`document.getElementById('status').textContent !== '' && !document.getElementById('status').classList.contains('busy') && !!localStorage.getItem('`+key+`')`, 30*time.Second)
				step(t, ctx, g.Path+": open",
					chromedp.EmulateViewport(size.w, size.h),
					chromedp.Navigate(ts.URL+g.Path),
					chromedp.Evaluate[chromedp.Void](`setTimeout(() => dispatchEvent(new Event('pagehide')), 1500)`),
					ready)
				step(t, ctx, g.Path+": play",
					chromedp.Evaluate[chromedp.Void](`(() => {
						const b = document.getElementById('board').getBoundingClientRect();
						const el = document.elementFromPoint(b.left + b.width / 2, b.top + Math.min(b.height, innerHeight - b.top) / 2);
						if (el) el.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: b.left + b.width / 2, clientY: b.top + b.height / 2 }));
					})()`),
					chromedp.Sleep(300*time.Millisecond))
				before := kept("before the reload")
				shoot(t, ctx, shots, fmt.Sprintf("%s-%s-1-played", size.name, g.Kind))
				step(t, ctx, g.Path+": reload",
					chromedp.Reload(),
					chromedp.Evaluate[chromedp.Void](`setTimeout(() => dispatchEvent(new Event('pagehide')), 1500)`),
					ready,
					chromedp.Sleep(2*time.Second)) // the restored game is kept again
				after := kept("after the reload")
				if !reflect.DeepEqual(before, after) {
					t.Errorf("%s at %s: the reload did not keep the game\nbefore %v\nafter  %v", g.Path, size.name, before, after)
				}
				shoot(t, ctx, shots, fmt.Sprintf("%s-%s-2-reloaded", size.name, g.Kind))
				if size.w < 500 {
					layout := value(t, ctx, g.Path+": phone layout", chromedp.Evaluate[string](`(() => {
						const d = document.documentElement;
						if (d.scrollWidth > d.clientWidth + 1) return 'scrolls sideways: ' + d.scrollWidth + ' px wide in ' + d.clientWidth;
						for (const id of ['board', 'auto']) {
							const r = document.getElementById(id).getBoundingClientRect();
							if (r.width === 0 || r.height === 0) return id + ' not shown';
							if (r.left < 0 || r.right > d.clientWidth + 1) return id + ' outside the screen: ' + r.left + ' to ' + r.right;
						}
						return '';
					})()`))
					if layout != "" {
						t.Errorf("%s at 390 px: %s", g.Path, layout)
					}
				}
			}
		})
	}
}

// shoot saves a screenshot of the page as DIR/NAME.jpg (quality 75, small
// enough to keep in docs/) when dir is set.
func shoot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	if dir == "" {
		return
	}
	png := value(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot())
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	img, err := pngDecode(png)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 75}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jpg"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func pngDecode(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }
