package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tessera/internal/catalog"
	"tessera/internal/store"
	"tessera/npuzzle"
)

// Store is what the server needs of the database; *store.Store is one.
// Lookups of missing games or pictures return errors wrapping
// store.ErrNotFound.
// Every call names the owner (the client identity, see identity.go), but
// PictureAnyOwner, which the jobs use for pictures whose ownership was
// checked when the job was submitted.
type Store interface {
	SaveGame(ctx context.Context, g store.Game, lim store.SaveLimits) (store.Game, error)
	Game(ctx context.Context, owner, kind, name string) (store.Game, error)
	Games(ctx context.Context, owner, kind string, page store.Page) ([]store.Game, int, error)
	DeleteGame(ctx context.Context, owner, kind, name string) error
	AddPicture(ctx context.Context, p store.Picture, lim store.PictureLimits) (store.Picture, error)
	Picture(ctx context.Context, owner, id string) (store.Picture, error)
	PictureAnyOwner(ctx context.Context, id string) (store.Picture, error)
	Pictures(ctx context.Context, owner string, page store.Page) ([]store.Picture, int, error)
	DeletePicture(ctx context.Context, owner, id string) error
	AddJob(ctx context.Context, j store.JobRef) error
	Job(ctx context.Context, id string) (store.JobRef, error)
	OpenJobs(ctx context.Context) ([]store.JobRef, error)
	FinishJob(ctx context.Context, id string) error
	Orphans(ctx context.Context) (int, error)
	AdoptOrphans(ctx context.Context, owner string) (int, error)
}

// Config holds the server's store and limits. Zero values mean the
// defaults given with each field.
type Config struct {
	Store  Store        // required
	Logger *slog.Logger // request and error log; nil: none

	// SolveTimeout bounds a solve whose request names no timeout (10 s);
	// MaxSolveTimeout is the most a request may ask for (30 s).
	SolveTimeout, MaxSolveTimeout time.Duration
	// BigOptimalTimeout bounds an optimal sliding search on a board of
	// more than 16 cells whose request or job names no time limit (1 min,
	// at most the request's or job's own default): IDA* proves boards up
	// to about 60 moves from the goal within it, while a shuffled 5x5
	// board takes it hours, so the page soon hands over to the fast
	// solver.
	BigOptimalTimeout time.Duration
	// HintTimeout bounds a hint (4 s): the first 60% goes to a shortest
	// solution, the rest to a quick one.
	HintTimeout time.Duration
	// SolveMemory bounds the estimated memory of the states one solve
	// stores (512 MiB).
	SolveMemory int64
	// MaxBusy bounds the solves and picture decodings that run at once
	// (GOMAXPROCS); more wait for a free slot until their own time limit.
	MaxBusy int

	// MaxUploadBytes bounds an uploaded picture file (10 MiB);
	// MaxUploadPixels its width x height (40 million).
	MaxUploadBytes  int64
	MaxUploadPixels int
	// PictureSide is the side of the square an uploaded picture is cropped
	// and scaled down to (600 pixels).
	PictureSide int
	// MaxPictures is how many uploaded pictures one client keeps; its
	// oldest go first (50). MaxPicturesTotal is how many all clients keep
	// together: past it, uploads are refused (507) (2,000).
	MaxPictures, MaxPicturesTotal int
	// MaxSaves is how many saved games one client keeps (100), MaxSaveBytes
	// their bytes (8 MiB), MaxSaveBytesTotal the bytes of all clients'
	// saves together (512 MiB); a save past one is refused (507).
	MaxSaves                        int
	MaxSaveBytes, MaxSaveBytesTotal int64
	// DecodeMemory bounds the memory that the uploads being decoded at once
	// allocate (512 MiB), counted from their headers before decoding
	// (imageio.DecodeCost): a few rows of a non-interlaced PNG, however
	// large, or for other files what their decoders allocate (the image and
	// its intermediate copies: 15 bytes a pixel for a progressive colour
	// JPEG, 8 for a lossless WebP), plus about 37 MiB to scale the square.
	// The process may hold up to about twice it between garbage
	// collections (GOGC=100). An upload waits for its share until its time limit
	// (SolveTimeout); one that needs more than DecodeMemory alone is
	// refused (413).
	DecodeMemory int64

	// Jobs runs the long solves (nil: a MemJobs of the server's own): the
	// catalogue's job kinds, which any worker runs (`tessera worker`
	// registers catalog.JobKinds). The web's own kinds (the sliding
	// page's solves and database builds, which read the server's pattern
	// databases) run on the server's own MemJobs whatever Jobs is.
	Jobs Jobs
	// JobTimeout is a job's time limit when its spec names none (2 min);
	// MaxJobTimeout the most a spec may ask for (10 min).
	JobTimeout, MaxJobTimeout time.Duration
	// MaxClientJobs bounds the jobs one client (one identity) runs at once
	// (4); MaxAddressJobs those of all the clients of one address (16: a
	// client that drops its cookie gets a new identity, not more jobs).
	// Both are counted again from the store when the server starts.
	MaxClientJobs, MaxAddressJobs int

	// Token, when set, is asked of every request but the static files'
	// (identity.go): in the URL once (?token=, exchanged for a cookie) or
	// in an Authorization header. "": none (serve on loopback).
	Token string
	// AdoptOrphans gives the saves and pictures stored before owners
	// existed (the database's schema 1) to the first client that lists its
	// saves or pictures: for a server only this machine reaches (serve on
	// loopback without a token), whose one user made them.
	AdoptOrphans bool

	// PDBs names the pattern database partition used by IDA* (and by the
	// fast solver once loaded) on each board size ("4x4" -> "7-8",
	// "5x5" -> "6-6-6-6" when nil). A database is read from PDBCache
	// ("": the user cache folder) or built there, within PDBMemory bytes
	// (3 GiB: 7-8 takes 548 MB while it builds); PDBNoCache builds in
	// memory only. A 4x4 database larger than 6-6-3 is built only when
	// asked (an npuzzle.pdb job, the page's button); until it is on disk
	// IDA* uses 6-6-3, built in seconds.
	PDBs       map[string]string
	PDBCache   string
	PDBNoCache bool
	PDBMemory  int64

	// DataDir is the shared data folder (SameGame's standard positions,
	// ...), as the command line finds it (-data, TESSERA_DATA); "": none,
	// and the pages offer generated puzzles only.
	DataDir string
}

// setDefault sets *v to d when it is not positive: a Config field's default.
func setDefault[T int | int64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// pageBudget checks the budget of a job a page sends: wall-clock time
// only, from 100 ms to MaxJobTimeout; none gives def (within that bound).
func (s *Server) pageBudget(b *catalog.Budget, def time.Duration) error {
	if b.CPU {
		return errorf(http.StatusBadRequest, "budget: the page's solves are timed by the wall clock")
	}
	switch t := b.Timeout; {
	case t == 0:
		b.Timeout = min(def, s.cfg.MaxJobTimeout)
	case t < 100*time.Millisecond || t > s.cfg.MaxJobTimeout:
		return errorf(http.StatusBadRequest, "budget: timeout %v out of range 100ms..%v", t, s.cfg.MaxJobTimeout)
	}
	return nil
}

func (c *Config) setDefaults() {
	setDefault(&c.SolveTimeout, 10*time.Second)
	setDefault(&c.MaxSolveTimeout, 30*time.Second)
	setDefault(&c.HintTimeout, 4*time.Second)
	setDefault(&c.BigOptimalTimeout, time.Minute)
	c.SolveTimeout = min(c.SolveTimeout, c.MaxSolveTimeout)
	setDefault(&c.SolveMemory, 512<<20)
	setDefault(&c.MaxBusy, runtime.GOMAXPROCS(0))
	setDefault(&c.MaxUploadBytes, 10<<20)
	setDefault(&c.MaxUploadPixels, 40_000_000)
	setDefault(&c.PictureSide, 600)
	setDefault(&c.MaxPictures, 50)
	setDefault(&c.MaxPicturesTotal, 2000)
	setDefault(&c.MaxSaves, 100)
	setDefault(&c.MaxSaveBytes, 8<<20)
	setDefault(&c.MaxSaveBytesTotal, 512<<20)
	setDefault(&c.DecodeMemory, 512<<20)
	setDefault(&c.JobTimeout, 2*time.Minute)
	setDefault(&c.MaxJobTimeout, 10*time.Minute)
	c.JobTimeout = min(c.JobTimeout, c.MaxJobTimeout)
	setDefault(&c.MaxClientJobs, 4)
	setDefault(&c.MaxAddressJobs, 4*c.MaxClientJobs)
	if c.PDBs == nil {
		c.PDBs = map[string]string{"4x4": "7-8", "5x5": "6-6-6-6"}
	}
	setDefault(&c.PDBMemory, 3<<30)
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
}

// Server is the web app: pages, static files and the JSON API. It is an
// http.Handler; Serve runs it on a listener.
type Server struct {
	cfg     Config
	store   Store
	log     *slog.Logger
	mux     *http.ServeMux
	handler http.Handler
	pages   map[string]*template.Template
	busy    chan struct{} // a slot per running solve or decoding
	// decodeMem holds the bytes of the uploads being decoded.
	decodeMem *memGate
	games     []*game
	proofs    *proofCache // the dust game's proven answers

	jobs     Jobs
	ownJobs  *MemJobs // the server's own job system, closed with it
	jobKinds map[string]jobKind
	counter  jobCounter
	pdbs     *pdbSet
	base     context.Context // the server's life, for work that outlives a request
	stop     context.CancelFunc
	sgSet    standardSet
	emOnce   sync.Once
	emList   []string    // the edge-matching files of the data folder
	jgCache  jgCache     // the jigsaw puzzles cut last
	orphans  atomic.Bool // saves and pictures of no client wait for one (Config.AdoptOrphans)
}

// New returns a server for cfg. It fails if cfg has no store or the
// embedded templates do not parse.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("web: no store")
	}
	s, err := build(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.recountJobs(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if cfg.AdoptOrphans {
		n, err := s.store.Orphans(ctx)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.orphans.Store(n > 0)
	}
	return s, nil
}

func build(cfg Config) (*Server, error) {
	cfg.setDefaults()
	s := &Server{
		cfg:       cfg,
		store:     cfg.Store,
		log:       cfg.Logger,
		mux:       http.NewServeMux(),
		busy:      make(chan struct{}, cfg.MaxBusy),
		decodeMem: newMemGate(cfg.DecodeMemory),
		games:     games,
		proofs:    &proofCache{max: 4096},
	}
	s.base, s.stop = context.WithCancel(context.Background())
	s.pdbs = &pdbSet{parts: map[npuzzle.Size]string{}, cacheDir: cfg.PDBCache, noCache: cfg.PDBNoCache, maxBytes: cfg.PDBMemory, base: s.base}
	for size, part := range cfg.PDBs {
		sz, err := npuzzle.ParseSize(size)
		if err != nil {
			return nil, fmt.Errorf("web: PDBs: %w", err)
		}
		s.pdbs.parts[sz] = part
	}
	s.ownJobs = NewMemJobs()
	s.jobs = s.ownJobs
	s.jobKinds = map[string]jobKind{}
	local := map[string]bool{}
	for _, g := range s.games {
		if g.jobs == nil {
			continue
		}
		for kind, k := range g.jobs(s) {
			s.jobKinds[kind] = k
			local[kind] = k.local
		}
	}
	if cfg.Jobs != nil {
		s.jobs = splitJobs{local: s.ownJobs, remote: cfg.Jobs, kinds: local}
	}
	if err := s.registerJobs(); err != nil {
		return nil, err
	}
	var err error
	if s.pages, err = parsePages(s.games); err != nil {
		return nil, err
	}
	s.routes()
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, "cross-origin request refused")
	}))
	s.handler = s.logRequests(s.recoverPanics(securityHeaders(cop.Handler(s.requireToken(identify(http.HandlerFunc(s.route)))))))
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.games[0].Path, http.StatusFound)
	})
	for _, g := range s.games {
		m.HandleFunc("GET "+g.Path, s.servePage(g))
		base := "/api/" + g.Kind + "/saves"
		m.HandleFunc("GET "+base, s.serveAPI(s.listSaves(g)))
		m.HandleFunc("GET "+base+"/{name}", s.serveAPI(s.loadSave(g)))
		m.HandleFunc("PUT "+base+"/{name}", s.serveAPI(s.putSave(g)))
		m.HandleFunc("DELETE "+base+"/{name}", s.serveAPI(s.deleteSave(g)))
		for call, h := range g.api {
			method, name, _ := strings.Cut(call, " ")
			m.HandleFunc(method+" /api/"+g.Kind+"/"+name, s.serveAPI(func(r *http.Request) (int, any, error) { return h(s, r) }))
		}
		if g.routes != nil {
			g.routes(s, m)
		}
	}
	s.jobRoutes(m)
	m.Handle("GET /static/", staticHandler())
	m.HandleFunc("GET /pictures/{id}", s.servePicture)

	m.HandleFunc("GET /api/pictures", s.serveAPI(s.listPictures))
	m.HandleFunc("POST /api/pictures", s.serveAPI(s.uploadPicture))
	m.HandleFunc("DELETE /api/pictures/{id}", s.serveAPI(s.deletePicture))
}

// route dispatches a request through the mux, answering unknown API paths
// and methods with JSON errors instead of the mux's plain text.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	h, pattern := s.mux.Handler(r)
	if pattern == "" && strings.HasPrefix(r.URL.Path, "/api/") {
		// The mux's own answer: 404, 405 with Allow, or a redirect.
		rec := &headerRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			writeError(w, rec.status, fmt.Sprintf("method %s not allowed on %s (allowed: %s)", r.Method, r.URL.Path, rec.header.Get("Allow")))
			return
		case http.StatusNotFound:
			writeError(w, rec.status, "no API endpoint "+r.URL.Path)
			return
		}
	}
	s.mux.ServeHTTP(w, r) // sets the path values that Handler does not
}

// headerRecorder keeps the status and headers a handler writes and drops
// the body.
type headerRecorder struct {
	header http.Header
	status int
}

func (h *headerRecorder) Header() http.Header { return h.header }
func (h *headerRecorder) WriteHeader(code int) {
	if h.status == 0 {
		h.status = code
	}
}

func (h *headerRecorder) Write(b []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return len(b), nil
}

// statusWriter records the status and size of an answer for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs every request with its status, size and duration.
func (s *Server) logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		s.log.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", sw.status,
			"bytes", sw.bytes, "ms", time.Since(start).Milliseconds(), "remote", r.RemoteAddr)
	})
}

// recoverPanics turns a panic in a handler into a logged 500 with a JSON
// body, so no stack trace reaches the client.
func (s *Server) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if sw, ok := w.(*statusWriter); !ok || sw.status == 0 {
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// securityHeaders sets headers that keep the pages to themselves: no
// framing, no content sniffing, scripts and styles from this server only.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
		h.ServeHTTP(w, r)
	})
}

// acquire takes a busy slot, waiting until ctx ends; release gives it back.
// A free slot is taken even when ctx has just ended (select would pick
// at random between the two), so that a solver with no time left reports
// its limit rather than a busy server.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.busy <- struct{}{}:
		return nil
	default:
	}
	select {
	case s.busy <- struct{}{}:
		return nil
	case <-ctx.Done():
		return errorf(http.StatusServiceUnavailable, "server busy: every solver slot stayed taken (%d); try again", cap(s.busy))
	}
}

func (s *Server) release() { <-s.busy }

// memGate is a weighted semaphore over bytes: the sum of what its holders
// acquired never exceeds its capacity.
type memGate struct {
	mu         sync.Mutex
	free, peak int64 // peak: the most ever held at once, for tests
	capacity   int64
	wake       chan struct{} // closed when memory is released
}

func newMemGate(capacity int64) *memGate {
	return &memGate{free: capacity, capacity: capacity, wake: make(chan struct{})}
}

// acquire waits until n bytes are free and takes them, or returns ctx's
// error. n must be at most the capacity.
func (g *memGate) acquire(ctx context.Context, n int64) error {
	for {
		g.mu.Lock()
		if n <= g.free {
			g.free -= n
			g.peak = max(g.peak, g.capacity-g.free)
			g.mu.Unlock()
			return nil
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (g *memGate) release(n int64) {
	g.mu.Lock()
	g.free += n
	close(g.wake)
	g.wake = make(chan struct{})
	g.mu.Unlock()
}

// Close stops what the server runs beyond its requests: it ends the
// pattern database builds and cancels the jobs the server runs itself
// (all of them without Config.Jobs; else its local kinds) and waits for
// them. Serve calls it on shutdown; a caller that serves s as a plain
// http.Handler calls it once its requests are done (a job's event stream
// ends with its job).
func (s *Server) Close() error {
	s.stop()
	return s.ownJobs.Close()
}

// Serve serves on ln until ctx ends, then stops accepting connections,
// cancels the requests in flight (their solves stop at once) and waits up
// to ten seconds for them to finish. It returns nil after such a shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	base, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute, // uploads on slow links
		WriteTimeout:      s.cfg.MaxSolveTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	cancel()
	s.stop()        // pattern database builds
	defer s.Close() // the server's own jobs, once the requests are done
	sctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	err := srv.Shutdown(sctx)
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
