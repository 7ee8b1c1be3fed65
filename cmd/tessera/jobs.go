package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"tessera/internal/bench"
	"tessera/internal/catalog"
	"tessera/internal/dist"
	"tessera/internal/jobs"
)

// defaultNATS is where the jobs commands look for a server: the address
// "tessera jobs server" listens on by default.
const defaultNATS = "nats://127.0.0.1:4222"

func init() {
	register(jobsCmd)
	register(workerCmd)
	// Every catalogue solve kind and bench item kind is a job kind, for the
	// workers of this binary (tessera worker, the in-process workers of
	// serve).
	for kind, fn := range catalog.JobKinds() {
		jobs.Register(kind, jobs.Handler(fn))
	}
	for kind, h := range bench.Items() {
		jobs.Register(kind, func(ctx context.Context, in json.RawMessage, _ func(any)) (any, error) { return h(ctx, in) })
	}
}

// The job kinds of the distributed searches (package dist registers them)
// run on every worker of this binary.
var _ = dist.SubtreeKind

// natsAuth holds the -creds and -tls-ca flags of a NATS client.
type natsAuth struct{ creds, ca *string }

// natsAuthFlags defines -creds and -tls-ca.
func natsAuthFlags(fs *flag.FlagSet) natsAuth {
	return natsAuth{
		creds: fs.String("creds", "", "`FILE` holding the NATS server's token (a copy of its store's "+jobs.TokenFile+"; default $"+jobs.EnvCreds+
			", a token in the URL as nats://TOKEN@HOST:PORT, or on this machine the default stores' own)"),
		ca: fs.String("tls-ca", "", "verify the NATS server's TLS certificate with this `FILE` (a copy of its store's "+jobs.CertFile+"; default $"+jobs.EnvCA+")"),
	}
}

func (a natsAuth) options() []jobs.Option {
	var out []jobs.Option
	if *a.creds != "" {
		out = append(out, jobs.WithCreds(*a.creds))
	}
	if *a.ca != "" {
		out = append(out, jobs.WithTLSCA(*a.ca))
	}
	return out
}

// natsFlag defines -nats on a bench verb (its credentials come from the
// URL, $TESSERA_NATS_CREDS and $TESSERA_NATS_CA, or this machine's
// default stores: see jobs.Connect).
func natsFlag(fs *flag.FlagSet) *string {
	return fs.String("nats", "", "send the items as jobs to the workers on this NATS server or cluster (`URL`, \"tessera worker\" joins it) and collect the results; empty: run in this process")
}

// solveNATSFlag defines -nats on a solve verb whose search runs as jobs.
func solveNATSFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("nats", "", "run "+what+" as jobs on the workers of this NATS server or cluster (`URL`; \"tessera worker -nats URL\" joins it); empty: in this process")
}

// solveClient connects to -nats (nil and a no-op close when url is empty).
func solveClient(ctx context.Context, url string) (*jobs.Client, func(), error) {
	if url == "" {
		return nil, func() {}, nil
	}
	c, err := jobs.Connect(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return c, c.Close, nil
}

var jobsCmd = &Command{
	Name:  "jobs",
	Short: "jobs on NATS JetStream: run a server, list, watch and cancel jobs",
	Long: `Long work runs as jobs on a NATS server with JetStream: "jobs server" runs
one from this binary (any official nats-server with JetStream works too),
"tessera worker -nats URL" on any number of machines works the jobs, and the
bench verbs with -nats URL send their items there. See internal/jobs for
the design (work queue, results recorded once, redelivery after a worker
is lost).`,
	Commands: []*Command{jobsServerCmd, jobsListCmd, jobsStatusCmd, jobsCancelCmd, jobsBenchCmd},
}

var jobsServerCmd = &Command{
	Name:      "server",
	UsageLine: "[-addr HOST:PORT] [-store DIR] [-creds FILE] [-tls-cert FILE -tls-key FILE] [-ack-wait D] [-max-attempts N] [-replicas N] [-sync-interval D] [-retention D] [-max-queued N] [-max-records N] [-max-records-mb M] [-cluster HOST:PORT -routes HOST:PORT,... -tls-ca FILE] [-name NAME]",
	Short:     "run a NATS server with JetStream for the jobs",
	Long: `Server runs a NATS server with JetStream, its file store under -store, until
interrupted (the store is locked: a second server on it is refused; by
default it is tessera/jobs under the user's configuration folder, not
tessera serve's tessera/nats), and creates the jobs' stream, bucket and consumer with
-ack-wait (a lost worker's job is redelivered after it), -max-attempts
(lost workers before a job is recorded as failed), -replicas and the
bounds: at most -max-queued jobs wait in the queue, records are refused
at nine tenths of -max-records entries or -max-records-mb, and a finished
job's record is forgotten -retention after it finished. Every write is
synced to the disk before it is acknowledged (-sync-interval 0), so an
acknowledged job or result survives a power cut; -sync-interval D syncs in
the background instead, faster, losing up to D of acknowledged writes in
a machine crash (a -cluster node with 0 syncs every 2 minutes and relies on
its replicas). With
-cluster it is a node of a cluster that dials -routes; give each node its
own -name and -store, and -replicas 3 once three nodes are up.

Clients need the server's token: it is drawn at the store's first start,
printed once, and kept in the store's token file (mode 0600); give a copy
to workers and clients with -creds FILE (or $TESSERA_NATS_CREDS, or
nats://TOKEN@HOST:PORT). Clients on this machine find it in the default
store by themselves. Listening beyond loopback (-addr 0.0.0.0:4222) the
server uses TLS: -tls-cert and -tls-key, or a self-signed certificate made
at the first start in the store (tls-cert.pem), which clients verify with
-tls-ca (a copy of it). A cluster shares one token (-creds on every node)
and, beyond loopback, needs -tls-cert, -tls-key and the CA that signed
every node's certificate (-tls-ca). Whoever holds the token can do
anything on the server: see docs/results/jobs.md, Security.`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		addr := fs.String("addr", "127.0.0.1:4222", "client address `HOST:PORT`")
		store := fs.String("store", jobs.DefaultServerDir(), "JetStream file store folder (locked while the server runs; tessera serve's default is another)")
		ackWait := durationFlag(fs, "ack-wait", jobs.DefaultAckWait, "redeliver a job whose worker sent no heartbeat for this `duration`")
		maxAttempts := fs.Int("max-attempts", jobs.DefaultMaxAttempts, "workers lost on a job before it is recorded as failed")
		replicas := fs.Int("replicas", 1, "replicas of the stream and bucket (3 in a cluster of three)")
		clusterAddr := fs.String("cluster", "", "cluster route address `HOST:PORT` (empty: no cluster)")
		routes := fs.String("routes", "", "other nodes' route addresses, comma-separated")
		name := fs.String("name", "", "server name (unique in a cluster)")
		verbose := fs.Bool("v", false, "print the server's log")
		creds := fs.String("creds", "", "use the token in this `FILE` (a cluster's nodes share one) instead of the store's own, drawn at its first start")
		tlsCert := fs.String("tls-cert", "", "TLS certificate `FILE` (PEM) beyond loopback (default: a self-signed one made in the store)")
		tlsKey := fs.String("tls-key", "", "the TLS certificate's key `FILE` (PEM)")
		tlsCA := fs.String("tls-ca", "", "with -cluster beyond loopback: the CA `FILE` that signed every node's -tls-cert")
		retention := durationFlag(fs, "retention", jobs.DefaultLimits.Retention, "forget a finished job's record (its result) this `duration` after it finished")
		syncEvery := durationFlag(fs, "sync-interval", 0, "sync the file store to the disk every `duration` (0: every write before it is acknowledged, so an acknowledged job survives a power cut)")
		maxQueued := fs.Int64("max-queued", jobs.DefaultLimits.MaxQueued, "jobs waiting in the queue at most (more are refused)")
		maxRecords := fs.Int64("max-records", jobs.DefaultLimits.MaxRecords, "job records and progress values kept at most (submissions are refused at nine tenths)")
		maxRecordsMB := fs.Int64("max-records-mb", jobs.DefaultLimits.MaxRecordBytes>>20, "MiB of job records kept at most (submissions are refused at nine tenths)")
		return func(ctx context.Context, env *Env, args []string) error {
			if *ackWait <= 0 || *maxAttempts < 1 || *replicas < 1 || *retention <= 0 || *maxQueued < 1 || *maxRecords < 1 || *maxRecordsMB < 1 {
				return usagef("-ack-wait, -max-attempts, -replicas, -retention and the -max bounds must be positive")
			}
			if *syncEvery < 0 {
				return usagef("-sync-interval must not be negative")
			}
			o := jobs.ServerOptions{Dir: *store, Addr: *addr, Name: *name, Log: *verbose, TLSCert: *tlsCert, TLSKey: *tlsKey, TLSCA: *tlsCA, SyncInterval: *syncEvery}
			if *creds != "" {
				tok, err := jobs.ReadToken(*creds)
				if err != nil {
					return err
				}
				o.Token = tok
			}
			if *clusterAddr != "" {
				o.Cluster = jobs.ClusterOptions{Addr: *clusterAddr, Routes: commaList(*routes, nil)}
			}
			// The store's owner, without workers: its client sets the
			// queue's bounds up and forgets finished jobs past -retention.
			limits := jobs.Limits{MaxQueued: *maxQueued, MaxRecords: *maxRecords, MaxRecordBytes: *maxRecordsMB << 20, Retention: *retention}
			c, err := jobs.StartEmbedded(ctx, o, 0, jobs.WithAckWait(*ackWait), jobs.WithMaxAttempts(*maxAttempts), jobs.WithReplicas(*replicas), jobs.WithLimits(limits))
			if err != nil {
				return err
			}
			defer c.Close()
			s := c.Server()
			fmt.Fprintf(env.Stdout, "jobs server on %s, store %s\n", s.URL(), s.Dir())
			s.Announce(env.Stdout, "tessera worker -nats URL")
			<-ctx.Done()
			return nil
		}
	},
}

// jobsClient connects to -nats for the jobs verbs.
func jobsClient(ctx context.Context, url string, auth natsAuth) (*jobs.Client, error) {
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	return jobs.Connect(cctx, url, append(auth.options(), jobs.WithSetupWait(10*time.Second))...)
}

// withJobsClient defines the flags of a verb that talks to a jobs server
// (-nats, -creds, -tls-ca) and returns its runner: it connects, then runs
// f with the client. With jobID the verb takes one job ID, checked first.
func withJobsClient(fs *flag.FlagSet, jobID bool, f func(ctx context.Context, env *Env, c *jobs.Client, args []string) error) Runner {
	url := fs.String("nats", defaultNATS, "NATS server `URL`")
	auth := natsAuthFlags(fs)
	return func(ctx context.Context, env *Env, args []string) error {
		if jobID && len(args) != 1 {
			return usagef("want one job ID")
		}
		c, err := jobsClient(ctx, *url, auth)
		if err != nil {
			return err
		}
		defer c.Close()
		return f(ctx, env, c, args)
	}
}

var jobsListCmd = &Command{
	Name:      "list",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] [-json]",
	Short:     "list the jobs, oldest first",
	NoArgs:    true,
	Flags: func(fs *flag.FlagSet) Runner {
		asJSON := jsonFlag(fs)
		return withJobsClient(fs, false, func(ctx context.Context, env *Env, c *jobs.Client, args []string) error {
			all, err := c.List(ctx)
			if err != nil {
				return err
			}
			return bench.PrintJobs(env.Stdout, all, *asJSON)
		})
	},
}

var jobsStatusCmd = &Command{
	Name:      "status",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] [-wait] ID",
	Short:     "print a job's record (JSON), with -wait once it is finished",
	Flags: func(fs *flag.FlagSet) Runner {
		wait := fs.Bool("wait", false, "wait until the job is finished")
		return withJobsClient(fs, true, func(ctx context.Context, env *Env, c *jobs.Client, args []string) error {
			status := c.Status
			if *wait {
				status = c.Wait
			}
			st, err := status(ctx, args[0])
			if err != nil {
				return err
			}
			return bench.WriteJSON(env.Stdout, st)
		})
	},
}

var jobsCancelCmd = &Command{
	Name:      "cancel",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] ID",
	Short:     "cancel a job",
	Flags: func(fs *flag.FlagSet) Runner {
		return withJobsClient(fs, true, func(ctx context.Context, env *Env, c *jobs.Client, args []string) error {
			return c.Cancel(ctx, args[0])
		})
	},
}

var jobsBenchCmd = &Command{
	Name:      "bench",
	UsageLine: "[-nats URL] [-creds FILE] [-tls-ca FILE] [-n N] [-concurrency C] [-workers K] [-sync-interval D] [-json]",
	Short:     "measure the per-job overhead: submit to result of empty jobs",
	Long: `Bench submits -n empty jobs (kind jobs.noop), -concurrency at a time, and
prints the time from submit to result (median, p90, p99, max) and the jobs
per second. Without -nats it starts an embedded server (in a temporary
folder; -sync-interval as for jobs server) with -workers in-process workers; with -nats the workers are
those of the cluster ("tessera worker").`,
	NoArgs: true,
	Flags: func(fs *flag.FlagSet) Runner {
		url := fs.String("nats", "", "NATS server `URL` (empty: an embedded server and in-process workers)")
		auth := natsAuthFlags(fs)
		n := fs.Int("n", 10000, "jobs")
		conc := fs.Int("concurrency", 1, "jobs in flight at once")
		workers := fs.Int("workers", 1, "without -nats: in-process workers")
		syncEvery := durationFlag(fs, "sync-interval", 0, "without -nats: the embedded server's sync interval (0: sync every write before acknowledging it)")
		asJSON := jsonFlag(fs)
		return func(ctx context.Context, env *Env, args []string) error {
			if *n < 1 || *conc < 1 || *workers < 1 {
				return usagef("-n, -concurrency and -workers must be positive")
			}
			var c *jobs.Client
			var err error
			if *url == "" {
				dir, derr := os.MkdirTemp("", "tessera-jobs-bench-")
				if derr != nil {
					return derr
				}
				defer os.RemoveAll(dir)
				c, err = jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: dir, SyncInterval: *syncEvery}, *workers)
			} else {
				c, err = jobsClient(ctx, *url, auth)
			}
			if err != nil {
				return err
			}
			defer c.Close()
			o, err := jobs.MeasureOverhead(ctx, c, *n, *conc)
			if err != nil {
				return err
			}
			if *asJSON {
				return bench.WriteJSON(env.Stdout, o)
			}
			_, err = fmt.Fprintln(env.Stdout, o)
			return err
		}
	},
}
