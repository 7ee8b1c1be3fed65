package jobs

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"tessera/internal/flock"
)

// ServerOptions configure an embedded NATS server with JetStream.
type ServerOptions struct {
	// Dir is the JetStream file store ("": DefaultDir()). It is locked
	// while the server runs: a second server on it is refused
	// (ErrStoreBusy).
	Dir string
	// Addr is the client address, host:port ("": 127.0.0.1 on a free
	// port; port 0 or -1 also picks a free one).
	Addr string
	// Name is the server's name, unique in a cluster ("": from the
	// address).
	Name string
	// Cluster, when its Addr is set, makes the server a node of a
	// cluster: it listens for routes on Cluster.Addr and dials Routes.
	Cluster ClusterOptions
	// Log prints the server's log to standard error.
	Log bool
	// Token is the clients' (and routes') credential: "" reads the
	// store's TokenFile, drawn from crypto/rand (256 bits) at the first
	// start; a token given is written there (mode 0600) for local
	// clients. The nodes of a cluster share one token.
	Token string
	// TLSCert and TLSKey are the client listener's certificate and key
	// (PEM files). The listener uses TLS whenever it listens beyond
	// loopback; without them the store's self-signed pair is used, made
	// at the first start (CertFile, KeyFile), and clients verify it with
	// a copy of CertFile (-tls-ca).
	TLSCert, TLSKey string
	// SyncInterval is how often the file store is synced to the disk in
	// the background: 0 (the default) syncs every write before it is
	// acknowledged (nats-server's sync_interval: always), so that an
	// acknowledged job or result survives a power cut or kernel crash; a
	// positive interval is faster and may lose what was acknowledged in
	// the last interval (nats-server's default is 2 minutes). A cluster
	// node with 0 keeps nats-server's interval and relies on its
	// replicas (sync always made the failover test flaky).
	SyncInterval time.Duration
	// TLSCA is the certificate of the CA that signs every node's
	// TLSCert: a cluster whose routes listen beyond loopback needs it
	// (and TLSCert, TLSKey) and is refused without.
	TLSCA string
}

// ClusterOptions are a cluster node's name, route address and peers.
type ClusterOptions struct {
	Name   string   // the cluster's name ("tessera" when empty)
	Addr   string   // host:port to listen for routes
	Routes []string // the other nodes' route addresses, host:port or nats-route://host:port
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns       *server.Server
	dir      string
	lock     *os.File
	token    string
	newToken bool
	certFile string
}

// ErrStoreBusy is returned by StartServer when another server (another
// process, or another Server of this one) runs on the same file store.
var ErrStoreBusy = errors.New("jobs: the store is in use by another server")

// LockFile is the file in a store that a running server holds locked.
const LockFile = "tessera.lock"

func configDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "tessera")
}

// DefaultDir returns the default file store of the embedded server
// (tessera serve's): tessera/nats under the user's configuration folder
// (os.UserConfigDir, as the web app's database), or under the temporary
// folder when there is none.
func DefaultDir() string { return filepath.Join(configDir(), "nats") }

// DefaultServerDir returns the default file store of "tessera jobs
// server": tessera/jobs under the user's configuration folder, another
// folder than DefaultDir so that a serve and a jobs server started with
// their defaults do not share a store.
func DefaultServerDir() string { return filepath.Join(configDir(), "jobs") }

// openLock creates and locks dir's LockFile.
func openLock(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("jobs: store: %w", err)
	}
	if err := flock.Lock(f); err != nil {
		f.Close()
		if errors.Is(err, flock.ErrBusy) {
			return nil, fmt.Errorf("%w: %s is used by another running tessera serve or tessera jobs server; "+
				"stop it, give this one another -store, or join the running one with -nats URL", ErrStoreBusy, dir)
		}
		return nil, fmt.Errorf("jobs: locking the store %s: %w", dir, err)
	}
	return f, nil
}

func splitAddr(addr, defHost string, defPort int) (string, int, error) {
	if addr == "" {
		return defHost, defPort, nil
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("jobs: address %q: %w", addr, err)
	}
	if h == "" {
		h = defHost
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < -1 || port > 65535 {
		return "", 0, fmt.Errorf("jobs: address %q: bad port", addr)
	}
	if port == 0 {
		port = -1
	}
	return h, port, nil
}

// StartServer starts an embedded NATS server with JetStream, its file
// store under o.Dir, and waits until it accepts connections (and, in a
// cluster, until JetStream is ready or ctx ends). Shut it down with
// Shutdown.
func StartServer(ctx context.Context, o ServerOptions) (*Server, error) {
	dir := o.Dir
	if dir == "" {
		dir = DefaultDir()
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("jobs: store: %w", err)
	}
	host, port, err := splitAddr(o.Addr, "127.0.0.1", -1)
	if err != nil {
		return nil, err
	}
	lock, err := openLock(dir)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			lock.Close()
		}
	}()
	token, newToken, err := storeToken(dir, o.Token)
	if err != nil {
		return nil, err
	}
	opts := &server.Options{
		ServerName:    o.Name,
		Host:          host,
		Port:          port,
		JetStream:     true,
		StoreDir:      dir,
		NoSigs:        true,
		NoLog:         !o.Log,
		MaxPayload:    1 << 20,
		Authorization: token,
		AuthTimeout:   5,
	}
	switch {
	case o.SyncInterval > 0:
		opts.SyncInterval = o.SyncInterval
	case o.Cluster.Addr == "":
		opts.SyncAlways = true
	default:
		// A cluster node keeps nats-server's interval and relies on its
		// replicas: with sync always TestClusterNodeKilled failed 1 run
		// of 3 (see docs/results/jobs.md).
	}
	var certFile string
	if !isLoopback(host) {
		if opts.TLSConfig, certFile, err = serverTLS(dir, o.TLSCert, o.TLSKey, host); err != nil {
			return nil, err
		}
		opts.TLSTimeout = 5
	}
	if o.Cluster.Addr != "" {
		ch, cp, err := splitAddr(o.Cluster.Addr, "127.0.0.1", -1)
		if err != nil {
			return nil, err
		}
		opts.Cluster.Name = o.Cluster.Name
		if opts.Cluster.Name == "" {
			opts.Cluster.Name = "tessera"
		}
		opts.Cluster.Host, opts.Cluster.Port = ch, cp
		// Routes authenticate with the shared token, and use TLS
		// beyond loopback.
		opts.Cluster.Username, opts.Cluster.Password = "tessera", token
		opts.Cluster.AuthTimeout = 5
		if !isLoopback(ch) {
			if opts.Cluster.TLSConfig, err = clusterTLS(o.TLSCert, o.TLSKey, o.TLSCA); err != nil {
				return nil, err
			}
			opts.Cluster.TLSTimeout = 5
		}
		for _, r := range o.Cluster.Routes {
			u, err := url.Parse(r)
			if err != nil || u.Host == "" {
				u, err = url.Parse("nats-route://" + r)
			}
			if err != nil {
				return nil, fmt.Errorf("jobs: route %q: %w", r, err)
			}
			if !isLoopback(u.Hostname()) && opts.Cluster.TLSConfig == nil {
				return nil, fmt.Errorf("jobs: route %s is beyond loopback: listen for routes beyond loopback, with TLS (-cluster, -tls-cert, -tls-key, -tls-ca)", r)
			}
			if u.User == nil {
				u.User = url.UserPassword("tessera", token)
			}
			opts.Routes = append(opts.Routes, u)
		}
		if opts.ServerName == "" {
			opts.ServerName = "tessera-" + net.JoinHostPort(ch, strconv.Itoa(cp))
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("jobs: server: %w", err)
	}
	if o.Log {
		ns.ConfigureLogger()
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, fmt.Errorf("jobs: server at %s did not start", o.Addr)
	}
	s := &Server{ns: ns, dir: dir, lock: lock, token: token, newToken: newToken, certFile: certFile}
	if o.Cluster.Addr == "" {
		ok = true
		return s, nil
	}
	// A clustered JetStream needs its meta group before it takes streams.
	for !ns.JetStreamIsCurrent() {
		select {
		case <-ctx.Done():
			ns.Shutdown()
			ns.WaitForShutdown()
			return nil, fmt.Errorf("jobs: cluster not ready: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	ok = true
	return s, nil
}

// URL returns the client URL (nats://host:port, tls://host:port beyond
// loopback; 127.0.0.1 for a server that listens on every address).
func (s *Server) URL() string {
	u, err := url.Parse(s.ns.ClientURL())
	if err != nil {
		return s.ns.ClientURL()
	}
	if ip := net.ParseIP(u.Hostname()); ip != nil && ip.IsUnspecified() {
		u.Host = net.JoinHostPort("127.0.0.1", u.Port())
	}
	return u.String()
}

// AuthURL returns the client URL with the token
// (nats://TOKEN@host:port): a secret, for this process's own clients.
func (s *Server) AuthURL() string {
	u, err := url.Parse(s.URL())
	if err != nil {
		return s.URL()
	}
	u.User = url.User(s.token)
	return u.String()
}

// Token returns the clients' token (kept in the store's TokenFile).
func (s *Server) Token() string { return s.token }

// TokenFile returns the file that holds the token (mode 0600).
func (s *Server) TokenFile() string { return filepath.Join(s.dir, TokenFile) }

// NewToken reports whether this start drew the token (the store's first
// start): the time to show it, once.
func (s *Server) NewToken() bool { return s.newToken }

// CertFile returns the certificate that clients verify the server's TLS
// with (their -tls-ca: the store's self-signed one or the one given), or
// "" when the server listens on loopback only, without TLS.
func (s *Server) CertFile() string { return s.certFile }

// Dir returns the file store folder.
func (s *Server) Dir() string { return s.dir }

// Shutdown stops the server, waits until it has stopped and unlocks its
// store.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	s.lock.Close()
}

// NATS returns the underlying nats-server (advanced use: monitoring).
func (s *Server) NATS() *server.Server { return s.ns }

// StartEmbedded starts an embedded server (ServerOptions), connects a
// client to it and runs workers in-process workers (0: none) until the
// client is closed or ctx ends: one machine, nothing installed. Close the
// client to stop the workers and the server.
func StartEmbedded(ctx context.Context, o ServerOptions, workers int, opts ...Option) (*Client, error) {
	s, err := StartServer(ctx, o)
	if err != nil {
		return nil, err
	}
	// The store's owner: its bounds (DefaultLimits unless opts say
	// otherwise) and the sweep of finished records.
	opts = append([]Option{WithLimits(Limits{})}, opts...)
	c, err := Connect(ctx, s.URL(), append(opts, WithToken(s.token), withLocalCA(s.certFile))...)
	if err != nil {
		s.Shutdown()
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	done := make(chan struct{})
	if workers > 0 {
		go func() { defer close(done); RunWorkers(wctx, c, workers) }()
	} else {
		close(done)
	}
	c.server = s
	c.mu.Lock()
	// Close stops the workers, closes the connection, then the server.
	c.closers = append(c.closers, func() { stop(); cancel(); <-done })
	c.mu.Unlock()
	return c, nil
}
