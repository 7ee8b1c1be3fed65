package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"tessera/internal/datadir"
	"tessera/internal/jobs"
	"tessera/internal/web"
)

var workerCmd = &Command{
	Name:      "worker",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] [-workers N] [-name NAME] [-data DIR]",
	Short:     "work the jobs of a NATS server or cluster",
	Long: `Worker joins the NATS server or cluster at -nats (comma-separated URLs for
several nodes) and runs -workers jobs at a time until interrupted: the
items of the bench verbs run with -nats and every other registered job
kind, the web app's solves among them (-data names the shared data
folder they read, as for serve). A job whose worker is killed goes to another worker after the
server's ack wait. Jobs that read files (a bench's data) need the same
paths on every worker. On an interrupt the running jobs go back to the
queue for another worker.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		url := fs.String("nats", defaultNATS, "NATS server `URL`")
		auth := natsAuthFlags(fs)
		workers := fs.Int("workers", runtime.NumCPU(), "jobs run at once")
		name := fs.String("name", "", "this worker's name in the job records (default host-pid)")
		dataDir := fs.String("data", "", "shared data folder for the web app's jobs (default $TESSERA_DATA or ../shared/data)")
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
			// The web app's solves (serve's jobs) run here too.
			data := *dataDir
			if data == "" {
				data, _ = datadir.Dir()
			}
			if err := web.RegisterJobKinds(web.Config{Jobs: web.NATSJobs{C: c}, DataDir: data}); err != nil {
				return err
			}
			fmt.Fprintf(env.Stderr, "worker %s: %d at a time on %s (pid %d)\n", c.Name(), *workers, *url, os.Getpid())
			return jobs.RunWorkers(ctx, c, *workers)
		}
	},
}
