package web

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"tessera/npuzzle"
)

// TestBrowserSliding5x5 walks IDA* on a 5x5 board: the menu does not offer
// IDA* while the 5x5 pattern database is missing and says so; Build runs
// the build as a job (a database of 3-tile patterns here, built in a
// moment, where 6-6-6-6 takes minutes); IDA* is then picked and proves a
// saved board's shortest solution, played to the end. On a uniformly
// random 5x5 board, where IDA* with that weak database reaches the job's
// time limit, the fast solver takes over.
func TestBrowserSliding5x5(t *testing.T) {
	ctx := browser(t)
	s := mustNew(t, Config{Store: openStore(t, ""), PDBs: map[string]string{"4x4": "5-5-5", "5x5": testPDB55}, PDBCache: t.TempDir(),
		JobTimeout: 8 * time.Second})
	ts := testServer(t, s)

	// A saved 5x5 game 30 moves from the goal.
	b := randomWalkFrom(goalBoard(npuzzle.Size{Rows: 5, Cols: 5}, 24), 30, rand.New(rand.NewPCG(5, 6)))
	want, err := npuzzle.IDAStar{}.Solve(t.Context(), b, npuzzle.BlankLast)
	if err != nil {
		t.Fatal(err)
	}
	decode[map[string]any](t, call(t, s, "PUT", "/api/npuzzle/saves/near", map[string]any{
		"start": b.Line(), "history": "", "picture": "sunset", "elapsed_ms": 0}), 200)

	// The browser is call's client, whose save it loads.
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: clientCookie, Value: testClient, URL: ts.URL}); err != nil {
		t.Fatal(err)
	}
	const ida = `document.querySelector('#solver option[value="idastar"]')`
	const pdbState = `document.getElementById('pdb').dataset.state`
	step(t, ctx, "load the page and the 5x5 game",
		chromedp.EmulateViewport(1280, 860),
		chromedp.Navigate(ts.URL+"/npuzzle"),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second),
		chromedp.Click(chromedp.CSS(`#saves li[data-name="near"] button.load`)),
		waitFor(statusJS+`.textContent.startsWith('Loaded “near”')`, 10*time.Second),
		waitFor(`!document.getElementById('pdb').hidden && `+pdbState+` === 'absent'`, 10*time.Second))
	if got := value(t, ctx, "menu", chromedp.Evaluate[string](ida+`.disabled + ' ' + document.getElementById('pdb-note').textContent`)); !strings.HasPrefix(got, "true The pattern database") || !strings.Contains(got, "IDA* is not offered") {
		t.Fatalf("without the database: %q", got)
	}
	step(t, ctx, "build the database",
		chromedp.Click(chromedp.ID("pdb-build")),
		waitFor(pdbState+` === 'ready' && !`+ida+`.disabled`, 60*time.Second),
		waitFor(statusJS+`.textContent.includes('is ready')`, 5*time.Second))
	step(t, ctx, "IDA* with it",
		chromedp.SetValue(chromedp.ID("solver"), "idastar"),
		chromedp.SetValue(chromedp.ID("speed"), "40"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.classList.contains('victory')`, 60*time.Second))
	if got, want := value(t, ctx, "status", chromedp.Text(chromedp.ID("status"))), fmt.Sprintf("Solved by IDA*: %d moves in all.", len(want.Moves)); got != want {
		t.Fatalf("status %q, want %q", got, want)
	}
	if got := value(t, ctx, "length", chromedp.Text(chromedp.ID("stat-length"))); got != fmt.Sprintf("%d moves (shortest)", len(want.Moves)) {
		t.Fatalf("solution shown as %q", got)
	}

	// A uniformly random 5x5 board: IDA* reaches the job's 8 s, the fast
	// solver takes over.
	step(t, ctx, "IDA* at its limit",
		chromedp.SetValue(chromedp.ID("shuffle-kind"), "uniform"),
		chromedp.Evaluate[chromedp.Void](statusJS+`.textContent = ''`),
		chromedp.Click(chromedp.ID("shuffle")),
		waitFor(statusJS+`.textContent.startsWith('New 5x5 board')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "idastar"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.classList.contains('victory')`, 60*time.Second))
	if got := value(t, ctx, "note", chromedp.Text(chromedp.ID("solver-note"))); !strings.Contains(got, "IDA* found no solution within its time limit of 8s") || !strings.Contains(got, "the fast solver took over") {
		t.Fatalf("after the fallback the note says %q", got)
	}
	if got := value(t, ctx, "status", chromedp.Text(chromedp.ID("status"))); !strings.HasPrefix(got, "Solved by Fast:") {
		t.Fatalf("after the fallback: %q", got)
	}
}
