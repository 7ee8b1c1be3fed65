// Package jobs runs long work as jobs on NATS JetStream: from one process
// (an embedded server, in-process workers) to a cluster of machines
// (tessera worker -nats URL on each), with nothing lost when a worker dies.
//
// A job is a Spec: a kind, naming a Handler registered with Register on the
// workers, its JSON input and a time limit. Submit checks the spec (at most
// MaxSpecBytes, well-formed; ErrSpec otherwise), records it as queued in
// the key-value bucket and publishes it to the work queue; RunWorkers pulls
// jobs one at a time per worker, runs their handlers and records the
// outcome; Wait, Watch, Status, List and Cancel read and steer the records.
//
//	jobs.Register("double", func(ctx context.Context, in json.RawMessage, progress func(any)) (any, error) {
//		var n int
//		if err := json.Unmarshal(in, &n); err != nil {
//			return nil, err // bad input: the job fails, no retry
//		}
//		return 2 * n, nil
//	})
//	c, _ := jobs.StartEmbedded(ctx, jobs.ServerOptions{Dir: dir}, 2) // or jobs.Connect(ctx, url) + RunWorkers
//	defer c.Close()
//	out, err := c.Call(ctx, "double", json.RawMessage(`21`), time.Minute) // out is 42
//
// # Streams, subjects, bucket
//
//   - Stream TESSERA_JOBS, subject tessera.jobs.queue, work-queue retention,
//     file storage: one message per job, the spec, published with the job
//     id as Nats-Msg-Id so that a repeated publish within ten minutes is
//     dropped by the server. A message leaves the stream when acked.
//   - Durable pull consumer tessera-workers shared by all workers, explicit
//     acks, AckWait (WithAckWait, 30 s) and MaxDeliver = MaxAttempts+1.
//   - Key-value bucket TESSERA_JOBS (history 1, file storage): job.<id> is
//     the job's Status, progress.<id> its latest progress value.
//   - Core subject tessera.jobs.cancel.<id>: Cancel's notice to the worker.
//
// # A job's life and exactly once
//
// Submit creates job.<id> (a create fails if the id exists: ErrExists) as
// queued, then publishes the spec. A worker that pulls it updates the
// record to running by compare-and-set (with the delivery count as
// Attempts), runs the handler with a context that ends at the job's time
// limit, on Cancel or when the worker stops, sends InProgress to the server
// every third of the ack wait while the handler runs, and writes the final
// record — done with the result, or failed or canceled with the error — by
// compare-and-set on a record that is not final yet, then acks. Every
// write of a final record checks that the record is not final already, so
// a result is recorded exactly once even when a job ran twice (a worker
// cut off from the server but still running when its job was
// redelivered): the first outcome stands and later ones are dropped.
//
// A worker killed mid-job stops its heartbeats; after the ack wait the
// server redelivers the job to another worker, which records it. A
// redelivered job whose record is final already (its worker died between
// recording and acking) is acked without running. After MaxAttempts lost
// workers (a job that kills its worker) the next delivery records it as
// failed. A handler's error (bad input, a budget) fails the job at once,
// without retries; a panic is recovered as an error. A worker that is
// stopped (its context ends) naks its running jobs, which go to another
// worker at once.
//
// # Failover
//
// Every request to the server (a record read or written, a publish) has
// its own timeout of five seconds and is retried for up to a minute while
// no leader answers: in a cluster a node's loss costs an election of a few
// seconds, during which a reply may be lost. Retries are safe: a publish
// carries the job id as its message id, a create that got through
// unanswered is recognised by its content, and records change only by
// compare-and-set. Wait also reads the record now and then besides
// the watch that wakes it, so a watch that restarts after a failover
// cannot leave it waiting. A job's stream, bucket and consumer are as
// durable as their replicas: WithReplicas(3) on three nodes loses nothing
// when one dies (TestClusterNodeKilled kills the stream's leader).
//
// # Benches on workers
//
// A bench's items are the catalogue's solve jobs ("samegame.solve",
// "edgematch.solve", ...: catalog.JobKinds), and the one bench item that is
// not a solve, SameGame's labelled positions (bench.NewItem:
// "bench.samegame.labels"); cmd/tessera registers them all, so "tessera
// worker" runs any bench's items and a bench with -nats prints what it
// prints locally (the same order: results are taken in item order). A job
// applies its own budget on the worker and reports its CPU time in its
// record.
//
// # Limits
//
// The store is bounded (Limits, DefaultLimits): the queue to MaxQueued
// jobs and MaxQueueBytes (discard policy new: a submission past them is
// refused with ErrFull, no queued job is dropped), the bucket to
// MaxRecords entries and MaxRecordBytes (submissions refused with ErrFull
// at nine tenths, so that accepted jobs can still record their outcome).
// The client that owns the store (WithLimits: the jobs server, an
// embedded server's) forgets finished jobs Retention after they finished
// (Sweep, Forget).
//
// Specs are bounded (MaxSpecBytes, kinds of MaxKindLen, ids of MaxIDLen)
// and refused at submission when malformed, with an error wrapping ErrSpec
// that says why. Results over MaxResultBytes fail the job; progress values
// over MaxProgressBytes are dropped, and progress is written at most four
// times a second per job. Inputs that name files (a bench's data) are read
// by the workers, which need the same files.
//
// # Security
//
// A server (StartServer) requires a token of every client and route: 256
// bits from crypto/rand drawn at the store's first start and kept in the
// store's TokenFile (mode 0600; ServerOptions.Token to share one across a
// cluster). Beyond loopback its client listener uses TLS (a given
// certificate, or a self-signed one made in the store, CertFile), and a
// cluster's routes beyond loopback need a certificate and the CA that
// signed every node's (refused without). Connect finds the token in the
// URL, an option, $TESSERA_NATS_CREDS, or, for a loopback URL, in this
// machine's default stores; a missing or wrong token is refused by the
// server with an authorization error (nats.ErrAuthorization).
//
// The token is the only credential, and it is all-powerful: there are no
// accounts or permissions. Whoever holds it can submit specs of every kind
// the workers run (and a bench item names files that the worker reads and
// writes with the worker's rights), read every record and result, write
// or forge records, cancel any job, and use the JetStream API freely
// (delete the stream, bucket and consumer, publish and subscribe to any
// subject). Give it only to the machines that run the workers and to the
// people who may run anything as the workers' user.
//
// # Servers
//
// StartServer runs an embedded nats-server with JetStream and its file
// store in a folder (DefaultDir: tessera/nats under the user's
// configuration folder), so jobs queued or finished survive a restart;
// ClusterOptions make it a node of a cluster (streams then take
// WithReplicas(3) to survive a node's loss). A single server syncs every
// write to the disk before acknowledging it (ServerOptions.SyncInterval
// 0): an acknowledged job or result survives a power cut (TestPowerCut
// drops every unsynced write with the FUSE layer of package faultfs, and
// its control, TestPowerCutSyncInterval, loses them with the interval); a
// cluster node relies on its replicas and syncs every 2 minutes. Its store is
// locked while it runs (ErrStoreBusy for a second server on it). Connect joins any NATS server
// or cluster with JetStream (an official nats-server too). Server.Announce
// tells clients where the token and certificate are (`tessera jobs
// server`); MeasureOverhead times the submit-to-result path of empty jobs
// (`tessera jobs bench`).
package jobs
