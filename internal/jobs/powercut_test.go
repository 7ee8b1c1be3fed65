package jobs

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"tessera/internal/jobs/faultfs"
)

// The power-cut tests run a jobs server (a process: this binary, the
// "server" helper) with its file store on a faultfs mount, which keeps
// every write in memory until its file is fsync'ed. Jobs are submitted
// and acknowledged, a worker records the results of some, then the
// server is SIGKILLed, every unsynced byte dropped (faultfs.Crash), and a
// server started again on what reached the backing folder: what a power
// cut leaves.

// cutJob is a job whose submission (and, when done, result) the server
// acknowledged before the cut.
type cutJob struct {
	id    string
	input string
	done  bool // its result was recorded (and acknowledged) before the cut
}

// powerCut runs the scenario with the server's sync interval (0: sync
// always) and returns the jobs acknowledged, the client of a server
// started again on the backing folder after the cut (nil if none
// starts: the store was lost), and the bytes the cut dropped.
func powerCut(t *testing.T, syncInterval time.Duration) ([]cutJob, *Client, int64) {
	t.Helper()
	mnt, backing := t.TempDir(), t.TempDir()
	fsys, err := faultfs.Mount(mnt, backing)
	if err != nil {
		t.Skipf("no FUSE fault layer here (needs /dev/fuse and the right to mount): %v", err)
	}
	mounted := true
	defer func() {
		if mounted {
			fsys.Unmount()
		}
	}()
	store := filepath.Join(mnt, "store")
	token, addr := NewID(), freePort(t)
	srv, ready := serverHelper(t, "TESSERA_JOBS_DIR="+store, "TESSERA_JOBS_ADDR="+addr, "TESSERA_JOBS_TOKEN="+token,
		"TESSERA_JOBS_SYNC="+syncInterval.String())
	waitReady(t, "server", ready)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	url := "nats://" + token + "@" + addr
	c, err := Connect(ctx, url, WithAckWait(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	// Four jobs run and recorded by a worker, four left queued.
	var acked []cutJob
	wctx, wcancel := context.WithCancel(ctx)
	wdone := make(chan struct{})
	go func() { defer close(wdone); RunWorkers(wctx, c, 1) }()
	defer wcancel()
	for i := range 8 {
		if i == 4 {
			wcancel()
			<-wdone
		}
		in := strconv.Itoa(100 + i)
		id, err := c.Submit(ctx, Spec{Kind: NoopKind, Input: json.RawMessage(in)})
		if err != nil {
			t.Fatal(err)
		}
		j := cutJob{id: id, input: in}
		if i < 4 {
			st, err := c.Wait(ctx, id)
			if err != nil || st.State != Done || string(st.Result) != in {
				t.Fatalf("job %d before the cut: %+v, %v", i, st, err)
			}
			j.done = true
		}
		acked = append(acked, j)
	}
	// The cut (the client closed first: closing it with its server gone
	// waits out its requests' timeouts).
	c.Close()
	if err := srv.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	dropped := fsys.Crash()
	if err := fsys.Unmount(); err != nil {
		t.Fatal(err)
	}
	mounted = false
	after, err := StartEmbedded(ctx, ServerOptions{Dir: filepath.Join(backing, "store"), Token: token}, 0, WithAckWait(time.Second))
	if err != nil {
		t.Logf("no server on what the cut left: %v", err)
		return acked, nil, dropped
	}
	t.Cleanup(after.Close)
	return acked, after, dropped
}

// TestPowerCut: with sync always (a single server's default) every job
// acknowledged before the cut is there after it, with its recorded
// result; the queued ones then run, and no job has two final records.
func TestPowerCut(t *testing.T) {
	acked, c, dropped := powerCut(t, 0)
	t.Logf("the cut dropped %d unsynced bytes", dropped)
	if c == nil {
		t.Fatal("the store did not survive the cut")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	all, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(acked) {
		t.Errorf("%d jobs after the cut, want the %d acknowledged", len(all), len(acked))
	}
	f := watchFinals(t, c)
	var ids []string
	for _, j := range acked {
		ids = append(ids, j.id)
		st, err := c.Status(ctx, j.id)
		switch {
		case err != nil:
			t.Errorf("job %s (input %s) lost in the cut: %v", j.id, j.input, err)
		case j.done && (st.State != Done || string(st.Result) != j.input):
			t.Errorf("done job %s after the cut: %+v, want done with %s", j.id, st, j.input)
		case !j.done && st.State != Queued:
			t.Errorf("queued job %s after the cut: %+v, want queued", j.id, st)
		}
	}
	if t.Failed() {
		return
	}
	wctx, wcancel := context.WithCancel(ctx)
	wdone := make(chan struct{})
	go func() { defer close(wdone); RunWorkers(wctx, c, 2) }()
	defer func() { wcancel(); <-wdone }()
	for _, j := range acked {
		st, err := c.Wait(ctx, j.id)
		if err != nil || st.State != Done || string(st.Result) != j.input {
			t.Errorf("job %s after the cut: %+v, %v", j.id, st, err)
		}
	}
	f.check(t, ids)
}

// TestPowerCutSyncInterval is the control: the same scenario with a
// background sync every 2 minutes (nats-server's default) loses
// acknowledged jobs or results, so the fault layer does drop what the
// server acknowledged without syncing.
func TestPowerCutSyncInterval(t *testing.T) {
	acked, c, dropped := powerCut(t, 2*time.Minute)
	t.Logf("the cut dropped %d unsynced bytes", dropped)
	if dropped == 0 {
		t.Error("nothing unsynced at the cut")
	}
	kept := 0
	if c == nil {
		t.Log("no server started on what the cut left")
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, j := range acked {
			st, err := c.Status(ctx, j.id)
			if err == nil && (!j.done || st.State == Done && string(st.Result) == j.input) {
				kept++
			}
		}
	}
	t.Logf("%d of %d acknowledged jobs (and results) survived the cut", kept, len(acked))
	if kept == len(acked) {
		t.Errorf("all %d acknowledged jobs survived a cut without sync: the fault layer dropped nothing that mattered", kept)
	}
}
