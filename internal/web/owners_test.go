package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"tessera/internal/store"
)

// Two clients of one server, as issue 38 item 2 tried them: B guesses,
// reads, follows and cancels A's job, lists, reads, overwrites and deletes
// A's saves and pictures, and plays them; every try fails with the 404 an
// unknown id gets, and A sees its things as it left them.
const (
	clientA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	clientB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

// as sends a request as a client (its cookie).
func as(t *testing.T, h http.Handler, client, method, path string, body any, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	return call(t, h, method, path, body, append([]string{"Cookie", clientCookie + "=" + client}, header...)...)
}

func TestClientsCannotTouchEachOthersJobs(t *testing.T) {
	s, _ := newServer(t, Config{})
	// A's job runs for minutes (IDA* with linear conflict on a hard 5x5).
	spec := map[string]any{"kind": "npuzzle.solve", "spec": map[string]any{"board": hard5x5, "solver": "idastar", "budget": map[string]any{"timeout_ns": 10 * time.Minute}}}
	st := decode[JobState](t, as(t, s, clientA, "POST", "/api/jobs", spec), http.StatusAccepted)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(st.ID) {
		t.Fatalf("job id %q: want 128 random bits", st.ID)
	}
	unknown := as(t, s, clientB, "GET", "/api/jobs/0123456789abcdef0123456789abcdef", nil)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/jobs/" + st.ID},
		{"DELETE", "/api/jobs/" + st.ID},
		{"GET", "/api/jobs/" + st.ID + "/events"},
	} {
		w := as(t, s, clientB, c.method, c.path, nil)
		wantError(t, w, http.StatusNotFound, "no job")
		if w.Body.String() != unknown.Body.String() {
			t.Errorf("B's %s %s answers %s, an unknown id %s: the answers tell them apart", c.method, c.path, w.Body, unknown.Body)
		}
	}
	// A's job is untouched: running, and A can cancel it.
	if got := decode[JobState](t, as(t, s, clientA, "GET", "/api/jobs/"+st.ID, nil), 200); got.State != JobRunning {
		t.Errorf("A's job after B's tries: %s", got.State)
	}
	if got := decode[JobState](t, as(t, s, clientA, "DELETE", "/api/jobs/"+st.ID, nil), 200); got.State != JobCancelled {
		t.Errorf("A cancels its job: %s", got.State)
	}
	// A cookie that is not an identity is replaced by a new one, not read.
	w := as(t, s, "../"+clientA, "GET", "/api/jobs/"+st.ID, nil)
	wantError(t, w, http.StatusNotFound, "no job")
}

func TestClientsCannotTouchEachOthersSaves(t *testing.T) {
	s, _ := newServer(t, Config{})
	decode[saveInfo](t, as(t, s, clientA, "PUT", "/api/npuzzle/saves/mine", npuzzleSaveBody), 200)
	if l := decode[savesList](t, as(t, s, clientB, "GET", "/api/npuzzle/saves", nil), 200); len(l.Saves) != 0 || l.Total != 0 {
		t.Errorf("B lists %+v", l)
	}
	wantError(t, as(t, s, clientB, "GET", "/api/npuzzle/saves/mine", nil), 404, `no saved npuzzle game "mine"`)
	wantError(t, as(t, s, clientB, "DELETE", "/api/npuzzle/saves/mine", nil), 404, "no saved")
	// B's save under the same name is B's own slot.
	solved := map[string]any{"start": "1 2 3/4 5 6/7 0 8", "history": "L", "picture": "sunset", "elapsed_ms": 0}
	decode[saveInfo](t, as(t, s, clientB, "PUT", "/api/npuzzle/saves/mine", solved), 200)
	a := decode[savedGame](t, as(t, s, clientA, "GET", "/api/npuzzle/saves/mine", nil), 200)
	if a.Solved || a.Board != "1 2 3/4 5 6/7 0 8" || a.Moves != 1 {
		t.Errorf("A's save after B wrote the same name: %+v", a.saveInfo)
	}
	if l := decode[savesList](t, as(t, s, clientA, "GET", "/api/npuzzle/saves", nil), 200); len(l.Saves) != 1 {
		t.Errorf("A lists %+v", l)
	}
}

func TestClientsCannotTouchEachOthersPictures(t *testing.T) {
	s, _ := newServer(t, Config{PictureSide: 240})
	body, ct := multipartBody(t, "picture", "a.png", testPNG(t, 480, 480))
	p := decode[pictureInfo](t, as(t, s, clientA, "POST", "/api/pictures", body, "Content-Type", ct), http.StatusCreated)
	list := decode[struct{ Pictures []pictureInfo }](t, as(t, s, clientB, "GET", "/api/pictures", nil), 200).Pictures
	if len(list) != len(builtinPictures) {
		t.Errorf("B lists %+v: want the built-in pictures only", list)
	}
	wantError(t, as(t, s, clientB, "GET", p.URL, nil), 404, "no picture")
	wantError(t, as(t, s, clientB, "DELETE", "/api/pictures/"+p.ID, nil), 404, "no picture")
	// Nor play it: cut it (cached or not), make a gap puzzle, solve it.
	ref := jgRef{Pictures: []string{p.ID}, Piece: 60, Seed: 1}
	decode[jgPuzzleJSON](t, as(t, s, clientA, "POST", "/api/jigsaw/new", map[string]any{"ref": ref}), 200) // now cached
	wantError(t, as(t, s, clientB, "POST", "/api/jigsaw/new", map[string]any{"ref": ref}), 404, "no picture")
	wantError(t, as(t, s, clientB, "POST", "/api/gaps/new", map[string]any{"picture": p.ID, "grid": 3, "seed": 1}), 404, "no picture")
	wantError(t, as(t, s, clientB, "POST", "/api/jobs", map[string]any{"kind": "jigsaw.solve", "spec": jgJob(ref, "greedy", time.Second)}), 404, "no picture")
	// Built-in pictures are everyone's; A's own is still there.
	decode[jgPuzzleJSON](t, as(t, s, clientB, "POST", "/api/jigsaw/new", map[string]any{"ref": jgSunset}), 200)
	if w := as(t, s, clientA, "GET", p.URL, nil); w.Code != 200 || !strings.HasPrefix(w.Header().Get("Cache-Control"), "private") {
		t.Errorf("A's picture: %d, Cache-Control %q", w.Code, w.Header().Get("Cache-Control"))
	}
	st := decode[JobState](t, as(t, s, clientA, "POST", "/api/jobs", map[string]any{"kind": "jigsaw.solve", "spec": jgJob(ref, "greedy", time.Second)}), http.StatusAccepted)
	as(t, s, clientA, "DELETE", "/api/jobs/"+st.ID, nil)
}

// The first visit gets an identity: a cookie of 128 random bits, HttpOnly
// and SameSite=Strict; a client keeps it.
func TestClientCookie(t *testing.T) {
	s, _ := newServer(t, Config{})
	req := httptest.NewRequest("GET", "/npuzzle", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	cs := w.Result().Cookies()
	if len(cs) != 1 || cs[0].Name != clientCookie || !validClientID(cs[0].Value) || !cs[0].HttpOnly ||
		cs[0].SameSite != http.SameSiteStrictMode || cs[0].Path != "/" || cs[0].MaxAge <= 0 {
		t.Fatalf("first visit's cookies: %+v", cs)
	}
	if w := as(t, s, clientA, "GET", "/npuzzle", nil); len(w.Result().Cookies()) != 0 {
		t.Errorf("a known client gets a new cookie: %v", w.Result().Cookies())
	}
}

// The bounds on running jobs: per client, per address (a client that
// drops its cookie is a new identity, not more jobs), and across a
// restart of the server (counted again from the store).
func TestJobBoundsHoldAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	st, err := store.Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mj := NewMemJobs() // the job system outlives the web server, as NATS does
	defer mj.Close()
	cfg := Config{Store: st, Jobs: mj, MaxClientJobs: 2, MaxAddressJobs: 3, PDBs: map[string]string{"4x4": "5-5-5"}, PDBNoCache: true}
	s1, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A job of the job system's (a catalogue kind; the sliding page's are
	// the server's own and end with it): a SameGame search of 10 minutes.
	long := map[string]any{"kind": "samegame.solve", "spec": map[string]any{"board": sgLine(dealStandard(3)), "solver": "nrpa",
		"budget": map[string]any{"timeout_ns": 600e9}}}
	var ids []string
	for range 2 {
		ids = append(ids, decode[JobState](t, as(t, s1, clientA, "POST", "/api/jobs", long), http.StatusAccepted).ID)
	}
	wantError(t, as(t, s1, clientA, "POST", "/api/jobs", long), http.StatusTooManyRequests, "2 of yours")
	ids = append(ids, decode[JobState](t, as(t, s1, clientB, "POST", "/api/jobs", long), http.StatusAccepted).ID)
	wantError(t, as(t, s1, fmt.Sprintf("%032x", 7), "POST", "/api/jobs", long), http.StatusTooManyRequests, "from your address")

	// A restart: a new server on the same store and job system.
	s2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	wantError(t, as(t, s2, clientA, "POST", "/api/jobs", long), http.StatusTooManyRequests, "2 of yours")
	wantError(t, as(t, s2, fmt.Sprintf("%032x", 8), "POST", "/api/jobs", long), http.StatusTooManyRequests, "from your address")
	if got := decode[JobState](t, as(t, s2, clientA, "GET", "/api/jobs/"+ids[0], nil), 200); got.State != JobRunning {
		t.Errorf("A's job after the restart: %s", got.State)
	}
	wantError(t, as(t, s2, clientB, "GET", "/api/jobs/"+ids[0], nil), 404, "no job")
	// A job that ended frees its place.
	decode[JobState](t, as(t, s2, clientA, "DELETE", "/api/jobs/"+ids[0], nil), 200)
	ids[0] = decode[JobState](t, as(t, s2, clientA, "POST", "/api/jobs", long), http.StatusAccepted).ID
	for _, id := range ids {
		mj.Cancel(t.Context(), id)
	}
}

// Saves are bounded per client (count and bytes) and in all, each refusal
// a 507 that says what to do; lists come in pages.
func TestSaveBoundsAndPages(t *testing.T) {
	s, _ := newServer(t, Config{MaxSaves: 3, MaxSaveBytes: 1 << 20, MaxSaveBytesTotal: 2 << 20})
	for i := range 3 {
		decode[saveInfo](t, as(t, s, clientA, "PUT", fmt.Sprintf("/api/npuzzle/saves/s%d", i), npuzzleSaveBody), 200)
	}
	wantError(t, as(t, s, clientA, "PUT", "/api/npuzzle/saves/s3", npuzzleSaveBody), http.StatusInsufficientStorage, "delete some")
	decode[saveInfo](t, as(t, s, clientA, "PUT", "/api/npuzzle/saves/s0", npuzzleSaveBody), 200) // an overwrite fits
	decode[saveInfo](t, as(t, s, clientB, "PUT", "/api/npuzzle/saves/s3", npuzzleSaveBody), 200) // B's own count

	p1 := decode[savesList](t, as(t, s, clientA, "GET", "/api/npuzzle/saves?limit=2", nil), 200)
	if len(p1.Saves) != 2 || p1.Total != 3 || p1.Next == nil || *p1.Next != 2 {
		t.Fatalf("first page: %+v", p1)
	}
	p2 := decode[savesList](t, as(t, s, clientA, "GET", "/api/npuzzle/saves?limit=2&offset=2", nil), 200)
	if len(p2.Saves) != 1 || p2.Next != nil || p2.Saves[0].Name == p1.Saves[0].Name || p2.Saves[0].Name == p1.Saves[1].Name {
		t.Fatalf("second page: %+v after %+v", p2, p1)
	}
	for _, q := range []string{"limit=0", "limit=201", "offset=-1", "limit=x"} {
		wantError(t, as(t, s, clientA, "GET", "/api/npuzzle/saves?"+q, nil), 400, "want a whole number")
	}

	// Bytes: a dust game of long history, per client and in all.
	sb, _ := newServer(t, Config{MaxSaveBytes: 3000, MaxSaveBytesTotal: 5000})
	big := dustState{Start: blogBoard11, History: strings.Join(strings.Fields(blogMoves11)[:5], " "), Seed: 1}
	body, _ := json.Marshal(big)
	size := len(body)
	n := 0
	for ; n*size < 6000; n++ {
		w := as(t, sb, clientA, "PUT", fmt.Sprintf("/api/dust/saves/d%d", n), big)
		if w.Code != 200 {
			wantError(t, w, http.StatusInsufficientStorage, "KiB")
			break
		}
	}
	if n == 0 || n*size > 6000 {
		t.Fatalf("per-client bytes: %d saves of about %d bytes accepted", n, size)
	}
	for i := 0; ; i++ {
		w := as(t, sb, clientB, "PUT", fmt.Sprintf("/api/dust/saves/d%d", i), big)
		if w.Code != 200 {
			wantError(t, w, http.StatusInsufficientStorage, "full")
			break
		}
		if i > 100 {
			t.Fatal("no bound on all saves")
		}
	}
}

// A database from before owners: on a server only this machine reaches,
// the first client that lists its saves adopts them; the next sees none.
func TestAdoptOrphans(t *testing.T) {
	st := openStore(t, "")
	if _, err := st.SaveGame(t.Context(), store.Game{Kind: "npuzzle", Name: "old", Board: "1 2 3/4 5 6/7 0 8",
		Data: []byte(`{"start":"1 2 3/4 5 6/7 0 8","board":"1 2 3/4 5 6/7 0 8","history":"","picture":"sunset","elapsed_ms":0}`)}, store.SaveLimits{}); err != nil {
		t.Fatal(err)
	}
	for _, adopt := range []bool{false, true} {
		s, err := New(Config{Store: st, AdoptOrphans: adopt, PDBs: map[string]string{"4x4": "5-5-5"}, PDBNoCache: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		got := len(decode[savesList](t, as(t, s, clientA, "GET", "/api/npuzzle/saves", nil), 200).Saves)
		if want := map[bool]int{false: 0, true: 1}[adopt]; got != want {
			t.Errorf("AdoptOrphans %v: A lists %d saves, want %d", adopt, got, want)
		}
		if l := decode[savesList](t, as(t, s, clientB, "GET", "/api/npuzzle/saves", nil), 200); len(l.Saves) != 0 {
			t.Errorf("AdoptOrphans %v: B lists %+v", adopt, l)
		}
	}
}
