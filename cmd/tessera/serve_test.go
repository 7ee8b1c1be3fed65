package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"tessera/internal/catalog"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServe runs tessera serve with args until the returned stop is
// called, and returns the server's address and the exit status channel.
func startServe(t *testing.T, args ...string) (url string, stderr *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stderr = &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"serve", "-addr", "127.0.0.1:0"}, args...), &Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr})
	}()
	re := regexp.MustCompile(`serving on http://(\S+)`)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := re.FindStringSubmatch(stderr.String()); m != nil {
			host, port, _ := net.SplitHostPort(m[1])
			if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
				host = "127.0.0.1" // all addresses: reach it on loopback
			}
			url = "http://" + net.JoinHostPort(host, port)
			break
		}
		select {
		case c := <-code:
			cancel()
			t.Fatalf("serve exited with %d: %s", c, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start: %s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return url, stderr, func() int {
		cancel()
		select {
		case c := <-code:
			return c
		case <-time.After(20 * time.Second):
			t.Fatal("serve did not stop")
			return -1
		}
	}
}

func TestServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	url, stderr, stop := startServe(t, "-db", db, "-store", t.TempDir())
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "Sliding puzzle") {
		t.Fatalf("GET /: %d", resp.StatusCode)
	}
	resp, err = http.Post(url+"/api/npuzzle/solve", "application/json", strings.NewReader(`{"board":"1 2 3/4 0 6/7 5 8"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"moves":"UL"`) {
		t.Fatalf("solve: %d %s", resp.StatusCode, body)
	}
	// The API's shuffle with a seed is the command's.
	for _, uniform := range []bool{false, true} {
		args := []string{"npuzzle", "shuffle", "-size", "4x5", "-seed", "11", "-json"}
		if uniform {
			args = append(args, "-uniform")
		}
		_, out, _ := runCmd(t, "", args...)
		var cli, api struct{ Board string }
		if err := json.Unmarshal([]byte(out), &cli); err != nil {
			t.Fatal(err)
		}
		resp, err := http.Post(url+"/api/npuzzle/shuffle", "application/json", strings.NewReader(fmt.Sprintf(`{"size":"4x5","seed":11,"uniform":%v}`, uniform)))
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(resp.Body).Decode(&api)
		resp.Body.Close()
		if err != nil || api.Board != cli.Board || cli.Board == "" {
			t.Errorf("uniform %v: API shuffle %q, command %q (%v)", uniform, api.Board, cli.Board, err)
		}
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d after interrupt: %s", code, stderr)
	}
	// Requests were logged; the database is where -db said.
	log := stderr.String()
	if !strings.Contains(log, "path=/api/npuzzle/solve status=200") || !strings.Contains(log, db) {
		t.Errorf("log:\n%s", log)
	}
	if _, err := os.Stat(db); err != nil {
		t.Error(err)
	}
}

func TestServeDefaultDatabase(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	_, stderr, stop := startServe(t, "-q")
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(config, "tessera", "tessera.db")); err != nil {
		t.Errorf("default database: %v", err)
	}
	if strings.Contains(stderr.String(), "msg=request") {
		t.Errorf("-q still logs requests:\n%s", stderr)
	}
}

func TestServeUsage(t *testing.T) {
	if code, _, errOut := runCmd(t, "", "serve", "extra"); code != 2 || !strings.Contains(errOut, "unexpected arguments") {
		t.Errorf("serve extra: %d %q", code, errOut)
	}
	if code, _, errOut := runCmd(t, "", "serve", "-addr", "256.0.0.1:x", "-db", filepath.Join(t.TempDir(), "x.db")); code != 1 || errOut == "" {
		t.Errorf("bad address: %d %q", code, errOut)
	}
	if code, out, _ := runCmd(t, "", "help", "serve"); code != 0 || !strings.Contains(out, "-addr") || !strings.Contains(out, "-db") {
		t.Errorf("help serve: %d %q", code, out)
	}
	// help and help serve name every game of the web app (catalog.Games).
	_, top, _ := runCmd(t, "", "help")
	_, serve, _ := runCmd(t, "", "help", "serve")
	for _, g := range catalog.Games {
		if !strings.Contains(strings.ToLower(top), strings.ToLower(g.Title)) || !strings.Contains(serve, g.Path+" ") || !strings.Contains(serve, g.Title+":") {
			t.Errorf("help or help serve lacks %s (%s)", g.Title, g.Path)
		}
	}
}

// A job's record is kept in the JetStream store: after a restart on the
// same store the page finds its finished job again.
func TestServeJobSurvivesRestart(t *testing.T) {
	db, store := filepath.Join(t.TempDir(), "games.db"), t.TempDir()
	url, stderr, stop := startServe(t, "-q", "-db", db, "-store", store, "-workers", "2")
	// One client: its identity in a cookie (a job is its submitter's only).
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	// call sends a request (a POST when body is not empty) and decodes
	// its JSON answer, which must come with status want.
	call := func(url, body string, want int) map[string]any {
		t.Helper()
		method, rd := http.MethodGet, io.Reader(nil)
		if body != "" {
			method, rd = http.MethodPost, strings.NewReader(body)
		}
		req, err := http.NewRequest(method, url, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != want {
			t.Fatalf("%s %s: %d %v %v", req.Method, url, resp.StatusCode, v, err)
		}
		return v
	}
	post := func(url, body string) map[string]any { t.Helper(); return call(url, body, http.StatusAccepted) }
	get := func(url string) map[string]any { t.Helper(); return call(url, "", http.StatusOK) }
	// A catalogue kind (the sliding page's are the server's own, in memory).
	job := post(url+"/api/jobs", `{"kind":"tangram.solve","spec":{"ref":{"figure":"house"},"solver":"exact"}}`)
	id := job["id"].(string)
	var done map[string]any
	for deadline := time.Now().Add(60 * time.Second); ; {
		done = get(url + "/api/jobs/" + id)
		if done["state"] == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not done: %v", done)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if res, _ := done["result"].(map[string]any); res["solved"] != true {
		t.Fatalf("result %v", done)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	url, stderr, stop = startServe(t, "-q", "-db", db, "-store", store, "-workers", "1")
	again := get(url + "/api/jobs/" + id)
	if again["state"] != "done" || fmt.Sprint(again["result"]) != fmt.Sprint(done["result"]) {
		t.Fatalf("after restart: %v", again)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// Beyond loopback serve asks for a token: drawn at random and printed in
// the URL to open; API calls without it get 401, the page trades it for a
// cookie. An empty -token there is refused unless -open (-insecure, its
// older name, is the same flag).
func TestServeToken(t *testing.T) {
	db := filepath.Join(t.TempDir(), "games.db")
	url, stderr, stop := startServe(t, "-q", "-db", db, "-store", t.TempDir(), "-workers", "0", "-addr", "0.0.0.0:0")
	m := regexp.MustCompile(`\?token=([0-9a-f]{32})\n`).FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no token URL printed:\n%s", stderr)
	}
	status := func(c *http.Client, path string) int {
		t.Helper()
		resp, err := c.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := status(http.DefaultClient, "/api/pictures"); c != http.StatusUnauthorized {
		t.Errorf("API without the token: %d", c)
	}
	if c := status(http.DefaultClient, "/npuzzle"); c != http.StatusUnauthorized {
		t.Errorf("page without the token: %d", c)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if c := status(browser, "/npuzzle?token="+m[1]); c != 200 {
		t.Errorf("the printed URL: %d", c)
	}
	if c := status(browser, "/api/pictures"); c != 200 {
		t.Errorf("API with the cookie: %d", c)
	}
	if code := stop(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	// A token given, on loopback: asked too.
	url, stderr, stop = startServe(t, "-q", "-db", db, "-store", t.TempDir(), "-workers", "0", "-token", "correct horse battery staple")
	if c := status(http.DefaultClient, "/api/pictures"); c != http.StatusUnauthorized {
		t.Errorf("loopback with -token, API without it: %d", c)
	}
	if strings.Contains(stderr.String(), "staple") {
		t.Errorf("a given token is printed:\n%s", stderr)
	}
	stop()

	// -open: no token, a plain warning.
	url, stderr, stop = startServe(t, "-q", "-db", db, "-store", t.TempDir(), "-workers", "0", "-addr", "0.0.0.0:0", "-token", "", "-open")
	if c := status(http.DefaultClient, "/api/pictures"); c != 200 || !strings.Contains(stderr.String(), "WARNING: serving beyond loopback without a token (-open)") {
		t.Errorf("-open: %d\n%s", c, stderr)
	}
	stop()

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-addr", "0.0.0.0:0", "-token", ""}, "add -open"},
		{[]string{"-token", "short"}, "at least 16"},
		{[]string{"-open", "-token", "0123456789abcdef0"}, "-open serves without a token; it does not go with"},
		{[]string{"-insecure", "-token", "0123456789abcdef0"}, "-open serves without a token; it does not go with"}, // the older name
	} {
		args := append([]string{"serve", "-db", db, "-store", t.TempDir()}, c.args...)
		if code, _, errOut := runCmd(t, "", args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %q: %d %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
