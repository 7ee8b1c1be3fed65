package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"tessera/internal/jobs"
)

var workerCmd = &Command{
	Name:      "worker",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] [-workers N] [-name NAME]",
	Short:     "work the jobs of a NATS server or cluster",
	Long: `Worker joins the NATS server or cluster at -nats (comma-separated URLs
for several nodes) and runs -workers jobs at a time until interrupted:
the catalogue's solve kinds (the web app's jigsaw, gap, SameGame,
edge-matching and tangram solves among them, "tessera serve -nats URL
-workers 0" beside it; the sliding page's run on the server), the items
of the bench verbs run with -nats and the distributed searches. A job
carries its inputs (pictures by content address in the job store) and
returns its outputs: a worker reads no file a job names. Pattern
databases come from the worker's own cache, by partition name. A job
whose worker is killed goes to another worker after the server's ack
wait. On an interrupt the running jobs go back to the queue for another
worker.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		url := fs.String("nats", defaultNATS, "NATS server `URL`")
		auth := natsAuthFlags(fs)
		workers := fs.Int("workers", runtime.NumCPU(), "jobs run at once")
		name := fs.String("name", "", "this worker's name in the job records (default host-pid)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *workers < 1 {
				return usagef("-workers must be at least 1")
			}
			opts := auth.options()
			if *name != "" {
				opts = append(opts, jobs.WithName(*name))
			}
			c, err := jobs.Connect(ctx, *url, opts...)
			if err != nil {
				return err
			}
			defer c.Close()
			// The kinds are the catalogue's, the bench items' and dist's,
			// registered by this binary's packages (jobs.go).
			fmt.Fprintf(env.Stderr, "worker %s: %d at a time on %s (pid %d)\n", c.Name(), *workers, *url, os.Getpid())
			return jobs.RunWorkers(ctx, c, *workers)
		}
	},
}
