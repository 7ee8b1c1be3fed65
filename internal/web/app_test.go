package web

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"tessera/internal/jobs"
	"testing"
	"time"
)

// App.Serve opens its database, starts an embedded job server in its
// store (its new token shown once), serves the pages until its context
// ends and then returns nil.
func TestAppServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var log strings.Builder // read once Serve has returned
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	app := App{DB: filepath.Join(dir, "app.db"), Log: &log, Store: filepath.Join(dir, "nats"), Workers: 1}
	go func() { done <- app.Serve(ctx, ln) }()
	url := "http://" + ln.Addr().String() + "/npuzzle"
	var resp *http.Response
	for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(50 * time.Millisecond) {
		if resp, err = http.Get(url); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /npuzzle: %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	for _, want := range []string{"new NATS token for the jobs (shown this once", "tessera: serving on http://" + ln.Addr().String() + " (database " + app.DB,
		"jobs on NATS embedded nats://", "1 workers here"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no %q in the log:\n%s", want, log.String())
		}
	}
}

// Check refuses a store with -nats and credentials without it.
func TestAppCheck(t *testing.T) {
	creds := []jobs.Option{jobs.WithCreds("token")}
	for _, c := range []struct {
		app  App
		want string
	}{
		{App{}, ""}, {App{NATS: "nats://h:4222", NATSOptions: creds}, ""}, {App{Store: "s"}, ""},
		{App{NATS: "nats://h:4222", Store: "s"}, "-store is the embedded server's"},
		{App{NATSOptions: creds}, "-creds and -tls-ca go with -nats"},
	} {
		if err := c.app.Check(); (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.app, err, c.want)
		}
	}
}
