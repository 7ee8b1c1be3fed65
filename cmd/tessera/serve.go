package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"runtime"
	"strings"
	"text/tabwriter"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
	"tessera/internal/web"
)

func init() {
	register(serveCmd)
}

// gamesHelp lists the web app's games (catalog.Games) for help serve.
func gamesHelp() string {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 8, 2, ' ', 0)
	for _, g := range catalog.Games {
		fmt.Fprintf(tw, "  %s\t%s: %s\n", g.Path, g.Title, g.About)
	}
	tw.Flush()
	return sb.String()
}

var serveCmd = &Command{
	Name:      "serve",
	UsageLine: "[-addr HOST:PORT] [-token T | -open] [-db FILE] [-store DIR | -nats URL [-creds FILE] [-tls-ca FILE]] [-retention D] [-workers N] [-data DIR] [-pdb DIR] [-q]",
	Short:     "serve the web app: " + catalog.GameList(),
	Long: `Serve runs the web app, a page per game:

` + gamesHelp() + `
Open the printed address in a browser. The standard positions and the
puzzle files come from the data folder: -data, else $TESSERA_DATA or
../shared/data; without one the pages offer generated puzzles only.

Saved games and uploaded pictures are kept in an SQLite file, by default
tessera/tessera.db under the user's configuration folder ($XDG_CONFIG_HOME
or ~/.config on Linux); another tessera process may use the same file at
the same time. Requests are logged on stderr. Interrupt (Ctrl-C) stops the
server gracefully: it finishes or cancels the requests in flight.

Uploaded pictures are bounded before they are decoded: at most 10 MiB and
40 million pixels, read from the header; they are decoded already reduced to
the stored 600x600 square, and the uploads decoded at once hold at most
512 MiB between them (others wait, within the 10 s limit of a request).

The sliding puzzle's pattern databases (7-8 for 4x4, 289 MB on disk;
6-6-6-6 for 5x5, 128 MB, built on the page with its progress shown, about
2.7 CPU-minutes and 1.2 GB while it builds) are kept in -pdb DIR, by default
the user cache folder's tessera/, where 'tessera npuzzle pdb build' puts
them too: a restarted server reads them in seconds. The folder holds only
the tables of those two partitions.

Long solves (Auto on the sliding puzzle, and the pages' other searches)
run as jobs on NATS JetStream: by default serve starts an embedded NATS
server with its file store under the user's configuration folder
(tessera/nats, or -store DIR; locked while serve runs, and not the default
store of 'tessera jobs server') on a loopback port, its token drawn at the
first start and kept in the store's token file (mode 0600; shown once),
and -workers in-process workers, so a
reloaded page finds its job again, running or finished, and a job survives
a server restart (a running one is run again). With -nats URL it joins an
existing server or cluster instead (its token by -creds FILE, TESSERA_NATS_CREDS
or nats://TOKEN@HOST:PORT, its certificate by -tls-ca; still running -workers workers here;
-workers 0 leaves the work to 'tessera worker -nats URL' processes, which
must be built with the same job kinds; the sliding page's solves and
database builds use this server's pattern databases and run here in any
case, and do not survive a restart). Each client runs at most 4 jobs at
once, each at most 10 minutes. The embedded server keeps at most 10,000
queued jobs and 100,000 records (2 GiB), refusing submissions past them,
and forgets a finished job -retention after it finished (a week).

Every browser gets a client identity, a random id kept in a cookie: the
jobs, saves and pictures it makes are its own, and other clients get 404
for them (docs/web.md, "Clients and owners"). Each client keeps at most 100
saves (8 MiB) and 50 pictures; all clients together 512 MiB of saves and
2,000 pictures. Saves and pictures of a database made before owners existed
go, on loopback without a token, to the first browser that lists them.

The server listens on 127.0.0.1 by default, so only this machine can reach
it. -addr :8080 opens it to the network; then it asks for a token, as
Jupyter does: a random one is drawn at each start and printed once on
stderr in the URL to open (http://HOST:PORT/?token=...); the page trades it
for a cookie, and API calls without it (cookie, ?token= or Authorization:
Bearer TOKEN) get 401. -token sets it instead (16 characters or more).
-open serves beyond loopback without a token, said plainly: anyone who
reaches the port can use the server (each browser still sees only its own
things), so it is for a trusted network only; -token '' beyond loopback is
refused without it. (-insecure is its older name, still accepted.)`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (port 0: any free port)")
		dbPath := fs.String("db", "", "database file for saved games and pictures (default under the user's config folder)")
		quiet := fs.Bool("q", false, "do not log requests")
		storeDir := fs.String("store", "", "file store of the embedded NATS server for jobs (default tessera/nats under the user's config folder)")
		natsURL := fs.String("nats", "", "join this NATS server or cluster for jobs instead of starting one (nats://HOST:PORT, comma-separated)")
		auth := natsAuthFlags(fs)
		retention := durationFlag(fs, "retention", jobs.DefaultLimits.Retention, "embedded NATS server: forget a finished job (its result) this `duration` after it finished")
		dataDir := fs.String("data", "", "shared data folder (SameGame's standard positions, ...; default $TESSERA_DATA or ../shared/data, else generated puzzles only)")
		workers := fs.Int("workers", max(4, runtime.GOMAXPROCS(0)), "in-process job workers")
		token := fs.String("token", "", "the token asked of clients when listening beyond loopback (default: drawn at random and printed)")
		open := fs.Bool("open", false, "serve beyond loopback without a token: anyone who reaches the port can use the server (a trusted network only)")
		fs.BoolVar(open, "insecure", false, "the older name of -open")
		pdbDir := fs.String("pdb", "", "folder of the sliding puzzle's pattern databases (default the user cache folder's tessera/, as for 'tessera npuzzle pdb build')")
		return func(ctx context.Context, env *Env, args []string) error {
			app := web.App{DB: *dbPath, Log: env.Stderr, Quiet: *quiet, NATS: *natsURL, NATSOptions: auth.options(), Store: *storeDir, Retention: *retention,
				Workers: *workers, Data: *dataDir, PDB: *pdbDir}
			if err := app.Check(); err != nil {
				return usagef("%v", err)
			}
			if *retention <= 0 {
				return usagef("-retention %v: must be positive", *retention)
			}
			if *workers < 0 {
				return usagef("-workers %d: must not be negative", *workers)
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return err
			}
			defer ln.Close()
			app.TokenGiven = isSet(fs, "token")
			if app.Token, err = web.ServeToken(ln.Addr(), *token, app.TokenGiven, *open); err != nil {
				return usagef("%v", err)
			}
			return app.Serve(ctx, ln)
		}
	},
}
