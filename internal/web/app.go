package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"time"

	"tessera/internal/datadir"
	"tessera/internal/jobs"
	"tessera/internal/store"
)

// App is the web app as `tessera serve` runs it: a Server with its
// database, its job system (an embedded NATS server, or a server or
// cluster it joins) and in-process workers.
type App struct {
	DB    string    // the SQLite file of saves and pictures ("": store.DefaultPath())
	Log   io.Writer // the request log and the lines that say where the app runs
	Quiet bool      // log warnings only, not every request
	// NATS is the server or cluster to join for the jobs, with
	// NATSOptions (its credentials); "": an embedded server on Store
	// ("": jobs.DefaultDir()) that forgets a finished job Retention after
	// it finished (0: jobs.DefaultLimits'), its token drawn at its first
	// start.
	NATS        string
	NATSOptions []jobs.Option
	Store       string
	Retention   time.Duration
	Workers     int    // in-process job workers (0: the work is left to tessera worker)
	Data        string // Config.DataDir ("": datadir.Dir(); none: generated puzzles only)
	PDB         string // Config.PDBCache
	// Token is asked of clients (Config.Token; ServeToken chooses it);
	// TokenGiven says it was given rather than drawn, so not shown.
	Token      string
	TokenGiven bool
}

// Check refuses the settings that do not go together: a Store with NATS
// (the store is the embedded server's) and NATSOptions without NATS (the
// embedded server makes its own credentials). The errors name serve's
// flags.
func (a App) Check() error {
	switch {
	case a.NATS != "" && a.Store != "":
		return errors.New("-store is the embedded server's; it does not go with -nats")
	case a.NATS == "" && len(a.NATSOptions) > 0:
		return errors.New("-creds and -tls-ca go with -nats (the embedded server makes its own)")
	}
	return nil
}

// Serve runs the app on ln until ctx ends, then stops gracefully
// (Server.Serve), its workers and its job system.
func (a App) Serve(ctx context.Context, ln net.Listener) error {
	path := a.DB
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			return err
		}
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return err
	}
	defer st.Close()
	level := slog.LevelInfo
	if a.Quiet {
		level = slog.LevelWarn
	}
	logger := slog.New(slog.NewTextHandler(a.Log, &slog.HandlerOptions{Level: level}))
	// The job system first, its workers after the server has registered
	// its job kinds.
	var jc *jobs.Client
	if a.NATS != "" {
		jc, err = jobs.Connect(ctx, a.NATS, a.NATSOptions...)
	} else {
		jc, err = jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: a.Store}, 0, jobs.WithLimits(jobs.Limits{Retention: a.Retention}))
	}
	if err != nil {
		return err // says "jobs: ..." already
	}
	defer jc.Close()
	data := a.Data
	if data == "" {
		data, _ = datadir.Dir() // none: generated puzzles only
	}
	srv, err := New(Config{Store: st, Logger: logger, Jobs: NATSJobs{C: jc}, DataDir: data, PDBCache: a.PDB, Token: a.Token,
		AdoptOrphans: a.Token == "" && IsLoopback(ln.Addr())})
	if err != nil {
		return err
	}
	wctx, stopWorkers := context.WithCancel(ctx)
	workersDone := make(chan struct{})
	go func() {
		defer close(workersDone)
		if a.Workers > 0 { // RunWorkers runs at least one
			jobs.RunWorkers(wctx, jc, a.Workers)
		}
	}()
	defer func() { stopWorkers(); <-workersDone }()
	where := a.NATS
	if where == "" {
		s := jc.Server()
		where = "embedded " + s.URL() + ", store " + s.Dir() + ", token in " + s.TokenFile()
		if s.NewToken() {
			fmt.Fprintf(a.Log, "tessera: new NATS token for the jobs (shown this once; kept in %s, mode 0600): %s\n", s.TokenFile(), s.Token())
		}
	}
	fmt.Fprintf(a.Log, "tessera: serving on http://%s (database %s; jobs on NATS %s, %d workers here); Ctrl-C stops\n", ln.Addr(), st.Path(), where, a.Workers)
	AnnounceToken(a.Log, ln.Addr(), a.Token, a.TokenGiven)
	return srv.Serve(ctx, ln)
}
