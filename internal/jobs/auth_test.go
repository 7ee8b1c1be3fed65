package jobs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// noLocalStores points the default stores at an empty folder, so that
// Connect finds no token of this machine's.
func noLocalStores(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv(EnvCreds, "")
	t.Setenv(EnvCA, "")
}

// TestAuth: a server makes a token at its first start (mode 0600, the
// same one after a restart); a connection without it, or with another,
// is refused with an authorization error; with it (URL, option, file,
// environment, the local store) it works.
func TestAuth(t *testing.T) {
	noLocalStores(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	s, err := StartServer(ctx, ServerOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	tok := s.Token()
	if !s.NewToken() || len(tok) != 64 {
		t.Fatalf("first start: new %v, token %q", s.NewToken(), tok)
	}
	fi, err := os.Stat(filepath.Join(dir, TokenFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v", fi, err)
	}
	s.Shutdown()
	s, err = StartServer(ctx, ServerOptions{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	if s.NewToken() || s.Token() != tok {
		t.Fatalf("restart: new %v, token changed %v", s.NewToken(), s.Token() != tok)
	}
	if s.CertFile() != "" || !strings.HasPrefix(s.URL(), "nats://127.0.0.1:") {
		t.Fatalf("loopback server: URL %s, cert %q", s.URL(), s.CertFile())
	}

	// Refused: no token, a wrong one, raw NATS or through Connect.
	if nc, err := nats.Connect(s.URL()); !errors.Is(err, nats.ErrAuthorization) {
		if nc != nil {
			nc.Close()
		}
		t.Fatalf("raw NATS without a token: %v, want an authorization error", err)
	}
	for _, opt := range []Option{WithName("x"), WithToken("not-the-token")} {
		if c, err := Connect(ctx, s.URL(), opt); !errors.Is(err, nats.ErrAuthorization) || !strings.Contains(err.Error(), "-creds") {
			if c != nil {
				c.Close()
			}
			t.Fatalf("Connect without the token: %v, want an authorization error saying what to give", err)
		}
	}
	// Accepted.
	file := filepath.Join(t.TempDir(), "creds")
	os.WriteFile(file, []byte(tok+"\n"), 0o600)
	tries := map[string]func() (*Client, error){
		"url":    func() (*Client, error) { return Connect(ctx, s.AuthURL()) },
		"option": func() (*Client, error) { return Connect(ctx, s.URL(), WithToken(tok)) },
		"creds":  func() (*Client, error) { return Connect(ctx, s.URL(), WithCreds(file)) },
		"env": func() (*Client, error) {
			t.Setenv(EnvCreds, file)
			defer os.Setenv(EnvCreds, "")
			return Connect(ctx, s.URL())
		},
	}
	for name, try := range tries {
		c, err := try()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := c.Submit(ctx, Spec{Kind: NoopKind}); err != nil {
			t.Fatalf("%s: submit: %v", name, err)
		}
		c.Close()
	}
}

// TestAuthLocalStore: a client on this machine finds the token of the
// default store (jobs server's) by itself.
func TestAuthLocalStore(t *testing.T) {
	noLocalStores(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := StartServer(ctx, ServerOptions{Dir: DefaultServerDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	c, err := Connect(ctx, s.URL())
	if err != nil {
		t.Fatalf("local client: %v", err)
	}
	c.Close()
}

// TestTLSBeyondLoopback: a server listening on every address uses TLS
// with a self-signed certificate made in its store; a client that does
// not trust it is refused, one given it (-tls-ca) and the token works,
// and a TLS client without the token is refused with an authorization
// error. A cluster beyond loopback without certificates is refused.
func TestTLSBeyondLoopback(t *testing.T) {
	noLocalStores(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	s, err := StartServer(ctx, ServerOptions{Dir: dir, Addr: "0.0.0.0:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	if s.CertFile() != filepath.Join(dir, CertFile) || !strings.HasPrefix(s.URL(), "tls://") {
		t.Fatalf("beyond loopback: URL %s, cert %q", s.URL(), s.CertFile())
	}
	if fi, err := os.Stat(filepath.Join(dir, KeyFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v", fi, err)
	}
	if c, err := Connect(ctx, s.URL(), WithToken(s.Token())); err == nil {
		c.Close()
		t.Fatal("a client that does not trust the certificate got through")
	}
	c, err := Connect(ctx, s.URL(), WithToken(s.Token()), WithTLSCA(s.CertFile()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Submit(ctx, Spec{Kind: NoopKind}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if nc, err := nats.Connect(s.URL(), nats.RootCAs(s.CertFile())); !errors.Is(err, nats.ErrAuthorization) {
		if nc != nil {
			nc.Close()
		}
		t.Fatalf("TLS without the token: %v, want an authorization error", err)
	}
	_, err = StartServer(ctx, ServerOptions{Dir: t.TempDir(), Cluster: ClusterOptions{Addr: "0.0.0.0:0"}})
	if err == nil || !strings.Contains(err.Error(), "-tls-ca") {
		t.Fatalf("cluster beyond loopback without TLS: %v, want a refusal", err)
	}
}
