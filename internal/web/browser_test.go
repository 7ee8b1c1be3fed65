package web

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tessera/internal/datadir"
	"tessera/internal/store"
	"tessera/npuzzle"
)

// These tests drive the pages in a real browser, Debian's chromium,
// headless. They skip when it is not installed, unless
// TESSERA_BROWSER_TESTS=required (as in .ci/run), where they fail.

var updateScreenshot = flag.Bool("update-screenshot", false, "write the README's screenshots, docs/npuzzle.png and docs/dust.png, from TestBrowserScreenshot and TestBrowserDustAuto")

// One headless chromium serves every browser test of the package: it
// starts with the first test that asks for it and stops after the last
// (TestMain). Each test gets a tab of its own in a fresh browser context
// (its own cookies and storage, as a new player), so tests are independent
// and run in parallel (as many at once as -test.parallel allows, by
// default the number of CPUs).
var shared struct {
	mu      sync.Mutex
	ctx     context.Context // the browser's first tab; new tabs open beside it
	stop    func()
	profile string
}

func TestMain(m *testing.M) {
	code := m.Run()
	shared.mu.Lock()
	if shared.stop != nil {
		shared.stop()
	}
	shared.mu.Unlock()
	os.Exit(code)
}

// browser returns a context for a new tab of the shared chromium, closed
// with the test, whose console is watched. It marks the test parallel.
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("TESSERA_BROWSER_TESTS") == "required" {
			t.Fatal("TESSERA_BROWSER_TESTS=required but no chromium on PATH (apt-get install -y chromium)")
		}
		t.Skip("no chromium on PATH: install it (apt-get install -y chromium) to run the browser tests")
	}
	t.Parallel()
	bctx := sharedBrowser(t, path)
	// The page is told that the user prefers reduced motion: tiles then
	// move at once, without a slide, so a click never aims at a tile on
	// its way.
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// (The first action runs on the tab's own context, not a derived one
	// with a time limit, whose end would close the tab.)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 860)); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	watchConsole(t, ctx)
	return ctx
}

// sharedBrowser starts the shared chromium once. Chromium sometimes dies
// at start-up on a loaded machine (a crash before its DevTools endpoint
// answers); a fresh browser is tried three times before the test fails.
func sharedBrowser(t *testing.T, path string) context.Context {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx != nil {
		return shared.ctx
	}
	var err error
	for try := 1; ; try++ {
		if err = startBrowser(path); err == nil {
			return shared.ctx
		}
		if try == 3 {
			t.Fatalf("chromium did not start in %d tries: %v", try, err)
		}
		t.Logf("chromium did not start (try %d): %v", try, err)
	}
}

// startBrowser starts one headless chromium on a profile of its own, kept
// in shared until TestMain stops it.
func startBrowser(path string) error {
	profile, err := os.MkdirTemp("", "tessera-chromium-")
	if err != nil {
		return err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // needed as root, as in CI containers
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 860),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	stop := func() {
		cancelTab()
		cancelAlloc()
		// Chromium's helpers may still write to the profile for a moment
		// after it stops, so the folder is removed with retries.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		stop()
		return err
	}
	shared.ctx, shared.stop, shared.profile = ctx, stop, profile
	return nil
}

// watchConsole fails the test, when it ends, if a page wrote an error to
// the browser's console: an uncaught exception, console.error, or an
// error of the browser's log such as a Content Security Policy violation.
// A request the server answered with an error status is logged by the
// browser too; that is the API at work (a test of bad input), not a fault
// of the page, and is let through.
func watchConsole(t *testing.T, ctx context.Context) {
	var (
		mu   sync.Mutex
		errs []string
	)
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		for m, err := range chromedp.Console(cctx) {
			if err != nil {
				return
			}
			if (m.Type == chromedp.ConsoleError || m.IsException()) && !strings.Contains(m.Text, "Failed to load resource: the server responded with a status of") &&
				!strings.Contains(m.Text, "Failed to load resource: net::ERR_") {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() {
		time.Sleep(100 * time.Millisecond) // the last events on their way
		cancel()
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("the browser's console: %s", e)
		}
	})
}

// step runs actions with a time limit, failing the test on error.
func step(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	start := time.Now()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v (after %v)\n%s", what, err, time.Since(start).Round(time.Millisecond), pageState(ctx))
	}
	if d := time.Since(start); d > 10*time.Second { // a loaded machine: say where the time went
		t.Logf("step %q took %v", what, d.Round(time.Millisecond))
	}
}

// value runs one action that returns a value.
func value[T any](t *testing.T, ctx context.Context, what string, action chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, pageState(ctx))
	}
	return v
}

// pageState describes the page for failure messages.
func pageState(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`'status: ' + document.getElementById('status').textContent + ' | board: ' + document.getElementById('board').dataset.board`))
	if err != nil {
		return "(page state unavailable)"
	}
	return s
}

// waitFor polls a JavaScript condition.
func waitFor(cond string, timeout time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(50*time.Millisecond))
}

const statusJS = `document.getElementById('status')`

// shuffled clears the status, presses Shuffle and waits for the new board.
func shuffled(t *testing.T, ctx context.Context, size string) string {
	t.Helper()
	step(t, ctx, "shuffle",
		chromedp.Evaluate[chromedp.Void](statusJS+`.textContent = ''`),
		chromedp.Click(chromedp.ID("shuffle")),
		waitFor(statusJS+`.textContent.startsWith('New `+size+` board')`, 10*time.Second))
	return boardOf(t, ctx)
}

// boardOf returns the board the page shows, read in the page (chromedp's
// cached attributes may lag behind the page's changes).
func boardOf(t *testing.T, ctx context.Context) string {
	t.Helper()
	return value(t, ctx, "read the board", chromedp.Evaluate[string](`document.getElementById('board').dataset.board`))
}

// browserOn is browser with a test server on a new database, stopped
// with the test.
func browserOn(t *testing.T) (context.Context, *httptest.Server) {
	t.Helper()
	ctx := browser(t)
	ts, stop := serveOn(t, filepath.Join(t.TempDir(), "t.db"))
	t.Cleanup(stop)
	return ctx, ts
}

// openPage starts a browser and a server and loads the page at path in a
// window of w x h pixels, waiting (up to timeout) for its status line to
// begin with status, then for more.
func openPage(t *testing.T, path string, w, h int64, status string, timeout time.Duration, more ...chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	ctx, ts := browserOn(t)
	step(t, ctx, "load the page", append([]chromedp.Action[chromedp.Void]{
		chromedp.EmulateViewport(w, h),
		chromedp.Navigate(ts.URL + path),
		waitFor(statusJS+`.textContent.startsWith(`+strconv.Quote(status)+`)`, timeout)}, more...)...)
	return ctx
}

// serveOn starts a test server for the page on the database at path.
func serveOn(t *testing.T, path string) (*httptest.Server, func()) {
	t.Helper()
	return serveWith(t, path, nil)
}

// serveWith is serveOn with the server's Config changed by set (nil:
// unchanged) before it starts.
func serveWith(t *testing.T, path string, set func(*Config)) (*httptest.Server, func()) {
	t.Helper()
	st, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	// a pattern database built in a moment, never cached
	data, _ := datadir.Dir() // SameGame's standard positions, when there
	cfg := Config{Store: st, PDBs: map[string]string{"4x4": "5-5-5"}, PDBNoCache: true, DataDir: data}
	if set != nil {
		set(&cfg)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts, stopServer := startTestServer(t, s)
	return ts, func() {
		stopServer()
		st.Close()
	}
}

func TestBrowserAutoSolves(t *testing.T) {
	ctx, ts := browserOn(t)

	step(t, ctx, "load the page",
		chromedp.Navigate(ts.URL),
		chromedp.WaitVisible(chromedp.CSS("#board .tile")),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second))
	board := shuffled(t, ctx, "3x3")
	b, err := npuzzle.Parse(board, npuzzle.Size{})
	if err != nil || b.Rows() != 3 || b.Cols() != 3 || b.IsSolved(npuzzle.BlankLast) || !npuzzle.Solvable(b, npuzzle.BlankLast) {
		t.Fatalf("shuffled board %q: %v", board, err)
	}
	sol, err := npuzzle.IDAStar{}.Solve(t.Context(), b, npuzzle.BlankLast)
	if err != nil {
		t.Fatal(err)
	}

	step(t, ctx, "auto with A*",
		chromedp.SetValue(chromedp.ID("solver"), "astar"),
		chromedp.SetValue(chromedp.ID("speed"), "40"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.classList.contains('victory')`, 30*time.Second))

	status := value(t, ctx, "status", chromedp.Text(chromedp.ID("status")))
	want := fmt.Sprintf("Solved by A*: %d moves in all.", len(sol.Moves))
	if status != want {
		t.Errorf("status %q, want %q", status, want)
	}
	if got := boardOf(t, ctx); got != "1 2 3/4 5 6/7 8 0" {
		t.Errorf("board after Auto: %q", got)
	}
	if got := value(t, ctx, "moves", chromedp.Text(chromedp.ID("moves"))); got != fmt.Sprint(len(sol.Moves)) {
		t.Errorf("move counter %s, want %d", got, len(sol.Moves))
	}
	if got := value(t, ctx, "length", chromedp.Text(chromedp.ID("stat-length"))); got != fmt.Sprintf("%d moves (shortest)", len(sol.Moves)) {
		t.Errorf("solution shown as %q", got)
	}
	if got := value(t, ctx, "states", chromedp.Text(chromedp.ID("stat-states"))); !strings.Contains(got, "expanded") {
		t.Errorf("states searched shown as %q", got)
	}
}

func TestBrowserSaveRestartLoad(t *testing.T) {
	ctx := browser(t)
	path := filepath.Join(t.TempDir(), "t.db")
	ts, stop := serveOn(t, path)

	step(t, ctx, "load the page",
		chromedp.Navigate(ts.URL+"/npuzzle"),
		chromedp.WaitVisible(chromedp.CSS("#board .tile")),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second))
	start := shuffled(t, ctx, "3x3")

	// One move by clicking the tile above or below the gap, one by an
	// arrow key.
	b, _ := npuzzle.Parse(start, npuzzle.Size{})
	r, c := b.Blank()
	tile := b.At(1, c) // a neighbour of the gap, in the middle row or the gap is there
	if r == 1 {
		tile = b.At(0, c)
	}
	step(t, ctx, "click a tile", chromedp.Click(chromedp.CSS(fmt.Sprintf(`.tile[data-n="%d"]`, tile))))
	step(t, ctx, "arrow keys", chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowRight))
	board := boardOf(t, ctx)
	moves := value(t, ctx, "moves", chromedp.Text(chromedp.ID("moves")))
	if moves == "0" || moves == "1" || board == start {
		t.Fatalf("moves %s, board %q from %q: the click and keys did not all move", moves, board, start)
	}

	// Play on an uploaded picture: the saved game keeps it.
	upload := filepath.Join(t.TempDir(), "my picture.png")
	if err := os.WriteFile(upload, testPNG(t, 300, 200), 0o644); err != nil {
		t.Fatal(err)
	}
	step(t, ctx, "upload a picture",
		chromedp.SetUploadFiles(chromedp.ID("upload"), []string{upload}),
		waitFor(statusJS+`.textContent === 'Picture “my picture” added.'`, 10*time.Second))
	picture := value(t, ctx, "picture", chromedp.Evaluate[string](`document.getElementById('board').style.getPropertyValue('--picture')`))
	if !strings.Contains(picture, "/pictures/") {
		t.Fatalf("board picture %q, want the upload", picture)
	}

	step(t, ctx, "save",
		chromedp.SendKeys(chromedp.ID("slot"), "browser test"),
		chromedp.Click(chromedp.ID("save")),
		waitFor(statusJS+`.textContent === 'Saved as “browser test”.'`, 10*time.Second),
		chromedp.WaitVisible(chromedp.CSS(`#saves li[data-name="browser test"]`)))

	// Restart the server: a new process would open the same file.
	stop()
	ts, stop = serveOn(t, path)
	defer stop()

	step(t, ctx, "load after restart",
		chromedp.Navigate(ts.URL+"/npuzzle"),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second),
		chromedp.Click(chromedp.CSS(`#saves li[data-name="browser test"] button.load`)),
		waitFor(statusJS+`.textContent.startsWith('Loaded “browser test”')`, 10*time.Second))
	if got := boardOf(t, ctx); got != board {
		t.Errorf("loaded board %q, saved %q", got, board)
	}
	if got := value(t, ctx, "moves", chromedp.Text(chromedp.ID("moves"))); got != moves {
		t.Errorf("loaded move counter %s, saved %s", got, moves)
	}
	if got := value(t, ctx, "picture", chromedp.Evaluate[string](`document.getElementById('board').style.getPropertyValue('--picture')`)); got != picture {
		t.Errorf("loaded picture %q, saved %q", got, picture)
	}
	// Restart goes back to the shuffled board of the saved game.
	step(t, ctx, "restart", chromedp.Click(chromedp.ID("restart")))
	if got := boardOf(t, ctx); got != start {
		t.Errorf("restart after load: %q, want the saved start %q", got, start)
	}
}

// TestBrowserScreenshot plays a 4x4 board with Auto and takes a
// screenshot mid-way: into the test's artifacts, and with
// -update-screenshot into docs/npuzzle.png for the README.
func TestBrowserScreenshot(t *testing.T) {
	if raceEnabled {
		t.Skip("skipped under -race: the 5-5-5 pattern database that the page waits for builds past the 20 s wait")
	}
	ctx := openPage(t, "/", 1280, 860, "New 3x3 board", 10*time.Second,
		chromedp.SetValue(chromedp.ID("size"), "4x4"), // a new size shuffles
		waitFor(statusJS+`.textContent.startsWith('New 4x4 board')`, 10*time.Second),
		chromedp.Click(chromedp.CSS(`.pic[data-id="glass"]`)))
	for range 5 { // a board A* solves within its time limit
		shuffled(t, ctx, "4x4")
		step(t, ctx, "auto",
			chromedp.SetValue(chromedp.ID("speed"), "3"),
			chromedp.Click(chromedp.ID("auto")),
			waitFor(`!`+statusJS+`.classList.contains('busy')`, 20*time.Second))
		if ok := value(t, ctx, "found", chromedp.Evaluate[bool](statusJS+`.textContent.includes('move')`)); ok {
			break
		}
	}
	step(t, ctx, "play a few moves",
		waitFor(statusJS+`.textContent.includes('move 5 of')`, 20*time.Second))
	screenshot(t, ctx, "npuzzle.png")
}

// TestBrowserSlidingJobAndGap walks the sliding page's jobs and the
// source game's gap: the first tile tapped on the whole picture becomes
// the gap; Auto on a 5x5 board runs as a job, a reload finds it again, and
// Stop cancels it. The job gets ten minutes, not the page's usual minute
// before the fast solver takes over: on a loaded machine the reload alone
// has taken most of a minute, and the job must still be running after it.
func TestBrowserSlidingJobAndGap(t *testing.T) {
	const storedJob = `(JSON.parse(localStorage.getItem('tessera.npuzzle.job') || '{}').board || '')`
	ctx := browser(t)
	ts, stop := serveWith(t, filepath.Join(t.TempDir(), "t.db"), func(c *Config) {
		c.JobTimeout, c.BigOptimalTimeout = 10*time.Minute, 10*time.Minute
	})
	defer stop()
	step(t, ctx, "load the page",
		chromedp.EmulateViewport(1280, 860),
		chromedp.Navigate(ts.URL+"/npuzzle"),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("gap-kind"), "tap"),
		chromedp.Click(chromedp.ID("shuffle")),
		waitFor(statusJS+`.textContent === 'Tap the tile that becomes the gap.'`, 5*time.Second),
		// the tile in the top left corner, tile 1 of the whole picture
		chromedp.Click(chromedp.CSS(`.tile[data-n="1"]`)),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second))
	if home := value(t, ctx, "home", chromedp.Evaluate[string](`document.getElementById('board').dataset.home`)); home != "0" {
		t.Fatalf("the gap's home is %s, want 0", home)
	}
	board := boardOf(t, ctx)
	step(t, ctx, "auto to the gap's home",
		chromedp.SetValue(chromedp.ID("solver"), "astar"),
		chromedp.SetValue(chromedp.ID("speed"), "40"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.classList.contains('victory')`, 30*time.Second))
	b, _ := npuzzle.Parse(board, npuzzle.Size{})
	if got := boardOf(t, ctx); got != goalBoard(b.Size(), 0).Line() {
		t.Fatalf("after Auto: %q", got)
	}

	// A long search: IDA* with linear conflict on a uniform 5x5 board.
	step(t, ctx, "a long job",
		// SetValue fires the change events: the gap's kind and the size
		// each shuffle (the page uses the last one asked for), so no
		// press of Shuffle, whose answer could come after Auto's start.
		chromedp.SetValue(chromedp.ID("shuffle-kind"), "uniform"),
		chromedp.SetValue(chromedp.ID("gap-kind"), "last"),
		chromedp.SetValue(chromedp.ID("size"), "5x5"),
		waitFor(statusJS+`.textContent.startsWith('New 5x5 board')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("solver"), "idastar"),
		chromedp.Click(chromedp.ID("auto")),
		waitFor(statusJS+`.textContent.startsWith('Searching with IDA*')`, 20*time.Second),
		// the page stores the job once the server has taken it
		waitFor(storedJob+` !== ''`, 20*time.Second))
	board = boardOf(t, ctx)
	if memo := value(t, ctx, "the stored job", chromedp.Evaluate[string](storedJob)); memo != board {
		t.Fatalf("the page shows %q, its stored job %q", board, memo)
	}
	step(t, ctx, "reload",
		chromedp.Reload(),
		waitFor(statusJS+`.textContent.includes('still searching') || `+statusJS+`.textContent.startsWith('Searching with IDA*')`, 20*time.Second))
	if got := boardOf(t, ctx); got != board {
		t.Fatalf("after the reload the board is %q (status %q), the job's %q", got, value(t, ctx, "status", chromedp.Text(chromedp.ID("status"))), board)
	}
	step(t, ctx, "stop",
		waitFor(`!document.getElementById('stop').disabled`, 10*time.Second),
		chromedp.Click(chromedp.ID("stop")),
		waitFor(statusJS+`.textContent === 'Search stopped.'`, 20*time.Second))
}

// Shuffles answered out of order: the size goes to 5x5, whose answer the
// server gives late, then at once to 4x4. The page shows the 4x4 board it
// was asked for last, and the late 5x5 answer does not replace it.
func TestBrowserShuffleLatestWins(t *testing.T) {
	ctx := browser(t)
	s := mustNew(t, Config{Store: openStore(t, ""), PDBs: map[string]string{"4x4": "5-5-5"}, PDBNoCache: true})
	late := make(chan struct{}) // closed when the 5x5 answer has been sent
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" || r.URL.Path != "/api/npuzzle/shuffle" {
			s.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<10))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte(`"5x5"`)) {
			s.ServeHTTP(w, r)
			return
		}
		time.Sleep(time.Second)
		s.ServeHTTP(w, r)
		close(late)
	})
	ts, _ := startTestHandler(t, s, slow)
	step(t, ctx, "load the page",
		chromedp.Navigate(ts.URL+"/npuzzle"),
		waitFor(statusJS+`.textContent.startsWith('New 3x3 board')`, 10*time.Second),
		chromedp.SetValue(chromedp.ID("size"), "5x5"),
		chromedp.SetValue(chromedp.ID("size"), "4x4"),
		waitFor(statusJS+`.textContent.startsWith('New 4x4 board')`, 10*time.Second))
	select {
	case <-late:
	case <-time.After(30 * time.Second):
		t.Fatal("the 5x5 shuffle was not answered")
	}
	// The answer has left the server; give the page a moment to take it.
	time.Sleep(500 * time.Millisecond)
	b, err := npuzzle.Parse(boardOf(t, ctx), npuzzle.Size{})
	if err != nil {
		t.Fatal(err)
	}
	status := value(t, ctx, "status", chromedp.Text(chromedp.ID("status")))
	if b.Size() != (npuzzle.Size{Rows: 4, Cols: 4}) || !strings.HasPrefix(status, "New 4x4 board") {
		t.Fatalf("after the late 5x5 answer the page shows a %v board (status %q), want the 4x4 one", b.Size(), status)
	}
}

// screenshot writes the screen into the test's artifacts as name, and
// with -update-screenshot into docs/ for the README.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png := value(t, ctx, "screenshot", chromedp.CaptureScreenshot())
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), name), png, 0o644); err != nil {
		t.Fatal(err)
	}
	if *updateScreenshot {
		if err := os.WriteFile(filepath.Join("..", "..", "docs", name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// centreOf returns the page coordinates of the centre of the element sel.
func centreOf(t *testing.T, ctx context.Context, sel string) (float64, float64) {
	t.Helper()
	xy := value(t, ctx, "centre of "+sel, chromedp.Evaluate[[]float64](`(() => {
  const r = document.querySelector(`+strconv.Quote(sel)+`).getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
})()`))
	return xy[0], xy[1]
}

// drag presses the mouse at (x0, y0), moves it by way of the middle to
// (x1, y1) and lets go there.
func drag(x0, y0, x1, y1 float64) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1, y1, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft),
	)
}
