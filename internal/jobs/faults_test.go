package jobs

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The fault tests run helpers as processes: this test binary re-executed
// with TESSERA_JOBS_HELPER set to "worker" (RunWorkers on
// TESSERA_JOBS_URL) or "server" (a jobs server, a cluster node), so that a SIGKILL kills
// a worker or a node the way a crash does.

const helperEnv = "TESSERA_JOBS_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "worker":
		ctx := context.Background()
		c, err := Connect(ctx, os.Getenv("TESSERA_JOBS_URL"), WithName(os.Getenv("TESSERA_JOBS_NAME")))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n, _ := strconv.Atoi(os.Getenv("TESSERA_JOBS_N"))
		RunWorkers(ctx, c, n)
	case "server":
		ctx := context.Background()
		var sync time.Duration
		if v := os.Getenv("TESSERA_JOBS_SYNC"); v != "" {
			sync, _ = time.ParseDuration(v)
		}
		s, err := StartServer(ctx, ServerOptions{Dir: os.Getenv("TESSERA_JOBS_DIR"), Addr: os.Getenv("TESSERA_JOBS_ADDR"),
			Name: os.Getenv("TESSERA_JOBS_NAME"), Log: os.Getenv("TESSERA_JOBS_LOG") != "", Token: os.Getenv("TESSERA_JOBS_TOKEN"), Cluster: ClusterOptions{Addr: os.Getenv("TESSERA_JOBS_CLUSTER"),
				Routes: strings.Split(os.Getenv("TESSERA_JOBS_ROUTES"), ",")}, SyncInterval: sync})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("ready", s.URL())
		select {}
	}
}

// helper starts this binary as a helper process; it is killed at the end
// of the test.
func helper(t *testing.T, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd
}

// serverHelper starts this binary as a jobs server ("server" helper);
// its first line of output ("ready URL") arrives on the channel. It is
// killed at the end of the test.
func serverHelper(t *testing.T, env ...string) (*exec.Cmd, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"=server"), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ch := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case ch <- sc.Text():
			default:
			}
		}
	}()
	return cmd, ch
}

// waitReady waits for a server helper's "ready" line.
func waitReady(t *testing.T, name string, ch <-chan string) {
	t.Helper()
	select {
	case line := <-ch:
		if !strings.HasPrefix(line, "ready") {
			t.Fatalf("%s: %q", name, line)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not start", name)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// finals counts, per job, the distinct final records written (by
// revision, so that a watch that resumes after a failover and sees a
// record again does not count it twice).
type finals struct {
	mu   sync.Mutex
	revs map[string]map[uint64]State
}

func watchFinals(t *testing.T, c *Client) *finals {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := c.kv.Watch(ctx, "job.*", jetstream.IgnoreDeletes())
	if err != nil {
		t.Fatal(err)
	}
	f := &finals{revs: map[string]map[uint64]State{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range w.Updates() {
			st, ok := finalStatus(e)
			if !ok {
				continue
			}
			f.mu.Lock()
			if f.revs[st.ID] == nil {
				f.revs[st.ID] = map[uint64]State{}
			}
			f.revs[st.ID][e.Revision()] = st.State
			f.mu.Unlock()
		}
	}()
	t.Cleanup(func() { w.Stop(); cancel(); <-done })
	return f
}

// check waits until every job in ids has exactly one final record, done.
func (f *finals) check(t *testing.T, ids []string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		f.mu.Lock()
		ok := true
		for _, id := range ids {
			if len(f.revs[id]) == 0 {
				ok = false
			}
		}
		f.mu.Unlock()
		if ok || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // a second final write would show by now
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		revs := f.revs[id]
		if len(revs) != 1 {
			t.Errorf("job %s: %d final records, want 1: %v", id, len(revs), revs)
			continue
		}
		for _, st := range revs {
			if st != Done {
				t.Errorf("job %s: final state %s, want done", id, st)
			}
		}
	}
}

// TestWorkerKilled kills a worker process with SIGKILL while it runs two
// jobs: both are redelivered after the ack wait to the other worker, and
// every job's result is recorded exactly once.
func TestWorkerKilled(t *testing.T) {
	c := embedded(t, 0, WithAckWait(time.Second))
	f := watchFinals(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a := helper(t, helperEnv+"=worker", "TESSERA_JOBS_URL="+c.Server().AuthURL(), "TESSERA_JOBS_NAME=A", "TESSERA_JOBS_N=2")
	ids := submitN(t, ctx, c, 6, Spec{Kind: "test.sleep", Input: json.RawMessage(`"2s"`)})
	// Kill A once it runs two jobs.
	for {
		n := 0
		for _, id := range ids {
			if st, err := c.Status(ctx, id); err == nil && st.State == Running && st.Worker == "A" {
				n++
			}
		}
		if n == 2 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("worker A never ran two jobs")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	bctx, bcancel := context.WithCancel(ctx)
	bdone := make(chan struct{})
	go func() { defer close(bdone); RunWorkers(bctx, c, 2) }()
	defer func() { bcancel(); <-bdone }()
	redelivered := 0
	for _, id := range ids {
		st, err := c.Wait(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.State != Done || string(st.Result) != `"slept"` {
			t.Errorf("job %s: %+v", id, st)
		}
		if st.Attempts > 1 {
			redelivered++
			if st.Worker != c.Name() {
				t.Errorf("job %s redelivered to %s", id, st.Worker)
			}
		}
	}
	if redelivered < 2 {
		t.Errorf("%d jobs redelivered, want the 2 that A was running", redelivered)
	}
	f.check(t, ids)
}

// TestServerRestart stops the embedded server with jobs queued and
// finished and starts it again on the same file store: they are all
// there, and the queued ones run.
func TestServerRestart(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := StartEmbedded(ctx, ServerOptions{Dir: dir}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var finished, queued []string
	for i := range 3 {
		out, err := c.Call(ctx, NoopKind, json.RawMessage(strconv.Itoa(i)), 0)
		if err != nil || string(out) != strconv.Itoa(i) {
			t.Fatalf("noop %d: %s, %v", i, out, err)
		}
	}
	all, _ := c.List(ctx)
	for _, st := range all {
		finished = append(finished, st.ID)
	}
	c.Close()
	// A second server, no workers: the jobs stay queued.
	c, err = StartEmbedded(ctx, ServerOptions{Dir: dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		id, err := c.Submit(ctx, Spec{Kind: NoopKind, Input: json.RawMessage(strconv.Itoa(10 + i))})
		if err != nil {
			t.Fatal(err)
		}
		queued = append(queued, id)
	}
	c.Close()
	// The third finds them all and runs the queued ones.
	c, err = StartEmbedded(ctx, ServerOptions{Dir: dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	all, err = c.List(ctx)
	if err != nil || len(all) != 7 {
		t.Fatalf("after restart: %d jobs, %v", len(all), err)
	}
	for i, id := range finished {
		st, err := c.Status(ctx, id)
		if err != nil || st.State != Done || string(st.Result) != strconv.Itoa(i) {
			t.Errorf("finished job %s after restart: %+v, %v", id, st, err)
		}
	}
	for _, id := range queued {
		if st, err := c.Status(ctx, id); err != nil || st.State != Queued {
			t.Errorf("queued job %s after restart: %+v, %v", id, st, err)
		}
	}
	wctx, wcancel := context.WithCancel(ctx)
	wdone := make(chan struct{})
	go func() { defer close(wdone); RunWorkers(wctx, c, 2) }()
	defer func() { wcancel(); <-wdone }()
	for i, id := range queued {
		st, err := c.Wait(ctx, id)
		if err != nil || st.State != Done || string(st.Result) != strconv.Itoa(10+i) {
			t.Errorf("queued job %s: %+v, %v", id, st, err)
		}
	}
}

// TestClusterNodeKilled runs three NATS servers as a cluster on 127.0.0.1
// with the stream and bucket replicated three times, and kills one node
// with SIGKILL while jobs run: no job is lost, none recorded twice.
func TestClusterNodeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("cluster test in -short mode")
	}
	var addrs, routes []string
	for range 3 {
		addrs = append(addrs, freePort(t))
		routes = append(routes, freePort(t))
	}
	var nodes []*exec.Cmd
	var ready []<-chan string
	token := NewID() // the nodes' shared token
	for i := range 3 {
		cmd, ch := serverHelper(t, "TESSERA_JOBS_DIR="+t.TempDir(), "TESSERA_JOBS_ADDR="+addrs[i],
			"TESSERA_JOBS_NAME=node"+strconv.Itoa(i), "TESSERA_JOBS_CLUSTER="+routes[i], "TESSERA_JOBS_TOKEN="+token,
			"TESSERA_JOBS_ROUTES="+strings.Join(routes, ","))
		nodes, ready = append(nodes, cmd), append(ready, ch)
	}
	for i, ch := range ready {
		waitReady(t, "node "+strconv.Itoa(i), ch)
	}
	urls := "nats://" + token + "@" + strings.Join(addrs, ",nats://"+token+"@")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := Connect(ctx, urls, WithReplicas(3), WithAckWait(2*time.Second), WithSetupWait(60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	f := watchFinals(t, c)
	// Workers in two processes, each on its own client.
	for _, name := range []string{"A", "B"} {
		helper(t, helperEnv+"=worker", "TESSERA_JOBS_URL="+urls, "TESSERA_JOBS_NAME="+name, "TESSERA_JOBS_N=2")
	}
	ids := submitN(t, ctx, c, 24, Spec{Kind: "test.sleep", Input: json.RawMessage(`"150ms"`)})
	// Kill a node once a few results are in.
	for {
		f.mu.Lock()
		n := len(f.revs)
		f.mu.Unlock()
		if n >= 4 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no results before the kill")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The work queue's leader: the hardest node to lose.
	st, err := c.js.Stream(ctx, StreamName)
	if err != nil {
		t.Fatal(err)
	}
	leader := st.CachedInfo().Cluster.Leader
	k, err := strconv.Atoi(strings.TrimPrefix(leader, "node"))
	if err != nil {
		t.Fatalf("stream leader %q", leader)
	}
	t.Logf("killing %s", leader)
	if err := nodes[k].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		var id string
		for {
			id, err = c.Submit(ctx, Spec{Kind: "test.sleep", Input: json.RawMessage(`"150ms"`)})
			if err == nil || ctx.Err() != nil {
				break
			}
			t.Logf("%s submit: %v", time.Now().Format("15:04:05.000"), err)
			time.Sleep(100 * time.Millisecond) // a leader being elected
		}
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		st, err := c.Wait(ctx, id)
		if err != nil {
			t.Fatalf("job %s: %v", id, err)
		}
		if st.State != Done || string(st.Result) != `"slept"` {
			t.Errorf("job %s: %+v", id, st)
		}
	}
	f.check(t, ids)
}
