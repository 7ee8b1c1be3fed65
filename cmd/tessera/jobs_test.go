package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tessera/internal/jobs"
)

// stripTimes drops the fields that are measured, not computed (times,
// rates, memory), from each JSON line (recursively), so that a run on
// workers can be compared with a local one.
func stripTimes(t *testing.T, out string) []string {
	t.Helper()
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		b, _ := json.Marshal(strip(v))
		lines = append(lines, string(b))
	}
	return lines
}

func strip(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k := range v {
			if strings.Contains(k, "seconds") || strings.HasSuffix(k, "_ms") || strings.HasPrefix(k, "ms_") || strings.Contains(k, "per_") || strings.Contains(k, "rss") || k == "elapsed" {
				delete(v, k)
				continue
			}
			v[k] = strip(v[k])
		}
	case []any:
		for i := range v {
			v[i] = strip(v[i])
		}
	}
	return v
}

// startJobs starts an embedded job server with workers in-process
// workers and returns its client (for the caller to close) and its URL
// with the token.
func startJobs(t *testing.T, o jobs.ServerOptions, workers int) (*jobs.Client, string) {
	t.Helper()
	c, err := jobs.StartEmbedded(t.Context(), o, workers)
	if err != nil {
		t.Fatal(err)
	}
	return c, c.Server().AuthURL()
}

// runLocalAndRemote runs the command args here and with -nats url, and
// returns both outputs; name names the command in failures.
func runLocalAndRemote(t *testing.T, name, url string, args ...string) (local, remote string) {
	t.Helper()
	code, local, errOut := runCmd(t, "", args...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", name, code, errOut)
	}
	code, remote, errOut = runCmd(t, "", append(args, "-nats", url)...)
	if code != 0 {
		t.Fatalf("%s -nats: exit %d: %s", name, code, errOut)
	}
	return local, remote
}

// TestBenchOnWorkers runs benches locally and with -nats on in-process
// workers of an embedded server: the same lines, in the same order.
func TestBenchOnWorkers(t *testing.T) {
	c, url := startJobs(t, jobs.ServerOptions{Dir: t.TempDir()}, 2)
	defer c.Close()
	for _, args := range [][]string{
		{"samegame", "bench", "-rules", "dust", "-algo", "exact", "-n", "6", "-size", "5x5", "-timeout", "0", "-table-bits", "16", "-cpu", "-json"},
		{"samegame", "bench", "-rules", "dust", "-algo", "dfs,exact", "-n", "4", "-size", "5x5", "-timeout", "0", "-table-bits", "16", "-json"},
		{"npuzzle", "bench", "-n", "3", "-json"},
		{"npuzzle", "bench", "-set", "testdata/eight.txt", "-instances", "1-2", "-goal", "blank-last", "-algo", "idastar", "-h", "manhattan", "-json"},
		{"npuzzle", "bench", "-n", "3", "-size", "3x3", "-algo", "astar", "-json"},
		{"tangram", "bench", "-n", "2", "-algo", "exact", "-json"},
		{"jigsaw", "bench", "-set", strings.Join(jigsawTestImages, ","), "-algo", "greedy", "-json"},
		{"jigsaw", "neural", "bench", "-set", strings.Join(neuralTestImages, ","), "-crops", "2", "-algo", "greedy-v", "-seed", "3", "-json"},
		{"edgematch", "bench", "-kind", "framed", "-size", "4x4", "-colors", "4", "-n", "3", "-algo", "dfs", "-workers", "1", "-json"},
	} {
		name := strings.Join(args[:2], " ")
		local, remote := runLocalAndRemote(t, name, url, args...)
		l, r := stripTimes(t, local), stripTimes(t, remote)
		if strings.Join(l, "\n") != strings.Join(r, "\n") {
			t.Errorf("%s: local and -nats differ:\n%s\n---\n%s", name, strings.Join(l, "\n"), strings.Join(r, "\n"))
		}
	}
	// Pictures travel as blobs both ways: the worker reads no file the
	// client names and writes none; the client writes the same pictures
	// to its -out folder.
	for _, args := range [][]string{
		{"jigsaw", "bench", "-set", strings.Join(jigsawTestImages, ","), "-algo", "greedy", "-json"},
		{"jigsaw", "neural", "bench", "-set", strings.Join(neuralTestImages, ","), "-crops", "2", "-algo", "greedy-v", "-seed", "3", "-json"},
	} {
		dirs := [2]string{t.TempDir(), t.TempDir()}
		for k, extra := range [][]string{nil, {"-nats", url}} {
			if code, _, errOut := runCmd(t, "", append(append(args, "-out", dirs[k]), extra...)...); code != 0 {
				t.Fatalf("%v -out %v: exit %d: %s", args[:2], extra, code, errOut)
			}
		}
		local, _ := os.ReadDir(dirs[0])
		remote, _ := os.ReadDir(dirs[1])
		if len(local) == 0 || len(local) != len(remote) {
			t.Fatalf("%v -out: %d pictures here, %d from the workers", args[:2], len(local), len(remote))
		}
		for i, e := range local {
			l, _ := os.ReadFile(filepath.Join(dirs[0], e.Name()))
			r, err := os.ReadFile(filepath.Join(dirs[1], remote[i].Name()))
			if err != nil || e.Name() != remote[i].Name() || !bytes.Equal(l, r) {
				t.Errorf("%v -out: %s differs from the worker's %s (%v)", args[:2], e.Name(), remote[i].Name(), err)
			}
		}
	}
	// The dataset: the same file.
	dir := t.TempDir()
	for _, labels := range []string{"0", "3"} {
		solver := map[string]string{"0": "exact", "3": "beam"}[labels]
		for _, extra := range [][]string{nil, {"-nats", url}} {
			args := append([]string{"samegame", "dataset", "-n", "5", "-size", "5x5", "-timeout", "10s", "-solver", solver, "-width", "50",
				"-labels", labels, "-o", dir + "/d" + map[bool]string{true: "r", false: "l"}[extra != nil]}, extra...)
			if code, _, errOut := runCmd(t, "", args...); code != 0 {
				t.Fatalf("dataset %v: %s", extra, errOut)
			}
		}
		l, _ := os.ReadFile(dir + "/dl")
		r, _ := os.ReadFile(dir + "/dr")
		if len(l) == 0 || string(l) != string(r) {
			t.Errorf("dataset -labels %s: local and -nats differ:\n%s\n---\n%s", labels, l, r)
		}
	}
}

func TestJobsCommands(t *testing.T) {
	c, url := startJobs(t, jobs.ServerOptions{Dir: t.TempDir()}, 0)
	defer c.Close()
	id, err := c.Submit(t.Context(), jobs.Spec{ID: "job-1", Kind: jobs.NoopKind, Input: json.RawMessage(`7`)})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "jobs", "list", "-nats", url)
	if code != 0 || !strings.Contains(out, "job-1") || !strings.Contains(out, "queued") {
		t.Fatalf("list: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "jobs", "status", "-nats", url, id)
	var st jobs.Status
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.State != jobs.Queued {
		t.Fatalf("status: %d %q", code, out)
	}
	if code, _, errOut = runCmd(t, "", "jobs", "cancel", "-nats", url, id); code != 0 {
		t.Fatalf("cancel: %d %q", code, errOut)
	}
	code, out, _ = runCmd(t, "", "jobs", "status", "-nats", url, "-wait", id)
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.State != jobs.Canceled {
		t.Fatalf("status after cancel: %d %q", code, out)
	}
	if code, _, errOut = runCmd(t, "", "jobs", "status", "-nats", url, "nope"); code != 1 || !strings.Contains(errOut, "no such job") {
		t.Fatalf("unknown job: %d %q", code, errOut)
	}
	if code, out, errOut = runCmd(t, "", "jobs", "bench", "-n", "50", "-json"); code != 0 || !strings.Contains(out, `"jobs":50`) {
		t.Fatalf("jobs bench: %d %q %q", code, out, errOut)
	}
}
