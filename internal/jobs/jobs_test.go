package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
)

func init() {
	Register("test.sleep", func(ctx context.Context, in json.RawMessage, progress func(any)) (any, error) {
		var d Duration
		if err := json.Unmarshal(in, &d); err != nil {
			return nil, err
		}
		t := time.NewTimer(time.Duration(d))
		defer t.Stop()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		n := 0
		for {
			select {
			case <-t.C:
				return "slept", nil
			case <-tick.C:
				n++
				progress(n)
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	})
	Register("test.fail", func(ctx context.Context, in json.RawMessage, progress func(any)) (any, error) {
		return nil, errors.New("bad input, on purpose")
	})
	Register("test.panic", func(ctx context.Context, in json.RawMessage, progress func(any)) (any, error) {
		panic("on purpose")
	})
}

func embedded(t *testing.T, workers int, opts ...Option) *Client {
	t.Helper()
	ctx := context.Background()
	c, err := StartEmbedded(ctx, ServerOptions{Dir: t.TempDir()}, workers, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// submitN submits n jobs of spec and returns their ids.
func submitN(t *testing.T, ctx context.Context, c *Client, n int, spec Spec) []string {
	t.Helper()
	var ids []string
	for range n {
		id, err := c.Submit(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func TestInProcess(t *testing.T) {
	c := embedded(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := c.Call(ctx, NoopKind, json.RawMessage(`{"x":1}`), 0)
	if err != nil || string(out) != `{"x":1}` {
		t.Fatalf("noop: %s, %v", out, err)
	}
	_, err = c.Call(ctx, "test.fail", nil, 0)
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "on purpose") {
		t.Fatalf("fail: %v", err)
	}
	_, err = c.Call(ctx, "test.panic", nil, 0)
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "panicked") {
		t.Fatalf("panic: %v", err)
	}
	_, err = c.Call(ctx, "test.nokind", nil, 0)
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "unknown kind") {
		t.Fatalf("unknown kind: %v", err)
	}
	// Time limit.
	_, err = c.Call(ctx, "test.sleep", json.RawMessage(`"10s"`), 100*time.Millisecond)
	if !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), "time limit") {
		t.Fatalf("time limit: %v", err)
	}
	// Progress and cancel.
	id, err := c.Submit(ctx, Spec{Kind: "test.sleep", Input: json.RawMessage(`"20s"`)})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := c.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	progressed := 0
	var last Event
	for ev := range evs {
		if ev.Progress != nil {
			progressed++
			if progressed == 2 {
				if err := c.Cancel(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
		}
		last = ev
	}
	if !last.Final || last.Status.State != Canceled || progressed < 2 {
		t.Fatalf("watch: %d progress events, last %+v", progressed, last)
	}
	// Watch of a finished job gives the final record at once.
	evs, err = c.Watch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if ev := <-evs; !ev.Final || ev.Status.State != Canceled {
		t.Fatalf("rewatch: %+v", ev)
	}
	list, err := c.List(ctx)
	if err != nil || len(list) != 6 {
		t.Fatalf("list: %d jobs, %v", len(list), err)
	}
}

func TestSpecRefused(t *testing.T) {
	c := embedded(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	big := `{"kind":"jobs.noop","input":"` + strings.Repeat("x", MaxSpecBytes) + `"}`
	for _, tc := range []struct{ spec, want string }{
		{``, "EOF"},
		{`{`, "unexpected EOF"},
		{`[1,2]`, "cannot unmarshal array"},
		{`{"input":1}`, "no kind"},
		{`{"kind":"a b"}`, "malformed kind"},
		{`{"kind":"jobs.noop","id":"a.b"}`, "malformed id"},
		{`{"kind":"jobs.noop","timeout":"-1s"}`, "negative timeout"},
		{`{"kind":"jobs.noop","timeout":"soon"}`, "invalid duration"},
		{`{"kind":"jobs.noop","extra":1}`, "unknown field"},
		{`{"kind":"jobs.noop"} {}`, "text after"},
		{big, "more than the limit"},
	} {
		_, err := c.SubmitJSON(ctx, []byte(tc.spec))
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.40q: got %v, want ErrSpec with %q", tc.spec, err, tc.want)
		}
	}
	if _, err := c.Submit(ctx, Spec{Kind: NoopKind, Input: json.RawMessage(`{"a":`)}); !errors.Is(err, ErrSpec) {
		t.Errorf("bad input JSON: %v", err)
	}
	id, err := c.SubmitJSON(ctx, []byte(`{"kind":"jobs.noop","id":"job-1","timeout":2.5}`))
	if err != nil || id != "job-1" {
		t.Fatalf("good spec: %q, %v", id, err)
	}
	if _, err := c.Submit(ctx, Spec{ID: "job-1", Kind: NoopKind}); !errors.Is(err, ErrExists) {
		t.Errorf("same id twice: %v", err)
	}
	st, err := c.Status(ctx, "job-1")
	if err != nil || st.State != Queued || st.Timeout != Duration(2500*time.Millisecond) {
		t.Errorf("status: %+v, %v", st, err)
	}
	if _, err := c.Status(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(`{"kind":"jobs.noop","input":{"a":1},"timeout":"1s"}`))
	f.Add([]byte(`{"id":"x","kind":"k"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseSpec(b)
		if err != nil {
			if !errors.Is(err, ErrSpec) {
				t.Fatalf("error without ErrSpec: %v", err)
			}
			return
		}
		if s.Kind == "" || s.Timeout < 0 || (len(s.Input) > 0 && !json.Valid(s.Input)) {
			t.Fatalf("accepted a bad spec: %+v", s)
		}
	})
}

// Blobs: a job's input travels by content address, and the worker's
// context carries the store; a blob that does not match its address, or a
// bad address, is refused.
func TestBlobs(t *testing.T) {
	c := embedded(t, 1)
	data := []byte("a picture's bytes")
	addr, err := c.PutBlob(t.Context(), data)
	if err != nil || addr != BlobAddress(data) || !strings.HasPrefix(addr, "sha256:") {
		t.Fatalf("put: %q, %v", addr, err)
	}
	if again, err := c.PutBlob(t.Context(), data); err != nil || again != addr {
		t.Fatalf("put again: %q, %v", again, err)
	}
	Register("test.blob", func(ctx context.Context, in json.RawMessage, _ func(any)) (any, error) {
		b, ok := BlobsFrom(ctx)
		if !ok {
			return nil, errors.New("no blob store in the job's context")
		}
		var a string
		if err := json.Unmarshal(in, &a); err != nil {
			return nil, err
		}
		got, err := b.GetBlob(ctx, a)
		if err != nil {
			return nil, err
		}
		return b.PutBlob(ctx, append(got, '!'))
	})
	in, _ := json.Marshal(addr)
	out, err := c.Call(t.Context(), "test.blob", in, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var outAddr string
	if err := json.Unmarshal(out, &outAddr); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetBlob(t.Context(), outAddr); err != nil || string(got) != "a picture's bytes!" {
		t.Fatalf("the worker's blob: %q, %v", got, err)
	}
	for _, bad := range []string{"", "/etc/passwd", "sha256:" + strings.Repeat("0", 64), "sha256:xyz"} {
		if _, err := c.GetBlob(t.Context(), bad); !errors.Is(err, ErrBlob) {
			t.Errorf("GetBlob(%q): %v", bad, err)
		}
	}
	if _, err := c.PutBlob(t.Context(), make([]byte, MaxBlobBytes+1)); !errors.Is(err, ErrBlob) {
		t.Errorf("a blob over the bound: %v", err)
	}
}

// TestIDsUnguessable: ids drawn by Submit are 128 bits from crypto/rand
// (32 hex digits), distinct, with no prefix shared by the process (as
// nuid's was) nor a counter's step.
func TestIDsUnguessable(t *testing.T) {
	c := embedded(t, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hex32 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	ids := submitN(t, ctx, c, 3, Spec{Kind: NoopKind})
	for range 2000 {
		ids = append(ids, NewID())
	}
	seen := map[string]bool{}
	prefix := map[string]bool{}
	for _, id := range ids {
		if !hex32.MatchString(id) {
			t.Fatalf("id %q: want 32 hex digits (128 bits)", id)
		}
		if seen[id] {
			t.Fatalf("id %q drawn twice", id)
		}
		seen[id] = true
		prefix[id[:8]] = true
	}
	if len(prefix) < len(ids)-10 {
		t.Errorf("%d distinct 32-bit prefixes in %d ids: not random", len(prefix), len(ids))
	}
}
