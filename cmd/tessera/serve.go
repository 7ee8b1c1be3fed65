package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"

	"tessera/internal/store"
	"tessera/internal/web"
)

func init() {
	register(serveCmd)
}

var serveCmd = &Command{
	Name:      "serve",
	UsageLine: "[-addr HOST:PORT] [-db FILE] [-q]",
	Short:     "serve the web app: the sliding-puzzle picture game and the dust game",
	Long: `Serve runs the web app: the sliding-tile picture game with built-in or
uploaded pictures, hints, Auto with BFS, bidirectional BFS, A*, IDA* and
weighted A*; and the dust game (SameGame's fewest-clicks variant on 8 x 6)
with hints, Auto with the exact solver, DFS, beam search, MCTS or NRPA, and
the proven fewest clicks to compare with; saved games for both. Open the
printed address in a browser.

Saved games and uploaded pictures are kept in an SQLite file, by default
tessera/tessera.db under the user's configuration folder ($XDG_CONFIG_HOME
or ~/.config on Linux); another tessera process may use the same file at
the same time. Requests are logged on stderr. Interrupt (Ctrl-C) stops the
server gracefully: it finishes or cancels the requests in flight.

Uploaded pictures are bounded before they are decoded: at most 10 MiB and
40 million pixels, read from the header; they are decoded already reduced to
the stored 600x600 square, and the uploads decoded at once hold at most
512 MiB between them (others wait, within the 10 s limit of a request).

The server listens on 127.0.0.1 by default, so only this machine can reach
it; -addr :8080 opens it to the network.`,
	Flags: func(fs *flag.FlagSet) Runner {
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (port 0: any free port)")
		dbPath := fs.String("db", "", "database file for saved games and pictures (default under the user's config folder)")
		quiet := fs.Bool("q", false, "do not log requests")
		return func(ctx context.Context, env *Env, args []string) error {
			if len(args) > 0 {
				return usagef("unexpected arguments %q", args)
			}
			path := *dbPath
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
			if *quiet {
				level = slog.LevelWarn
			}
			logger := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
			srv, err := web.New(web.Config{Store: st, Logger: logger})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", *addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "tessera: serving on http://%s (database %s); Ctrl-C stops\n", ln.Addr(), st.Path())
			return srv.Serve(ctx, ln)
		}
	},
}
