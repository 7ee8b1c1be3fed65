package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tessera/internal/catalog"
	"tessera/internal/jobs"
	"tessera/samegame"
)

// TestEdgematchSplit: -split counts the solutions of a generated puzzle as
// the plain search does, and reports its subtrees; -nats without -split
// and -split with another solver are usage errors.
func TestEdgematchSplit(t *testing.T) {
	dir := t.TempDir()
	puzzle := filepath.Join(dir, "p.txt")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "2", "-frame", "1", "-seed", "3", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	code, plain, _ := runCmd(t, "", "edgematch", "solve", "-count", "-json", puzzle)
	code2, split, _ := runCmd(t, "", "edgematch", "solve", "-count", "-split", "3", "-workers", "2", "-json", puzzle)
	var a, b struct {
		Solutions int64 `json:"solutions"`
		Nodes     int64 `json:"nodes"`
		Subtrees  int   `json:"subtrees"`
		Depth     int   `json:"split_depth"`
	}
	if code != 0 || code2 != 0 || json.Unmarshal([]byte(plain), &a) != nil || json.Unmarshal([]byte(split), &b) != nil {
		t.Fatalf("%d %d %s %s", code, code2, plain, split)
	}
	if a.Solutions < 2 || b.Solutions != a.Solutions || b.Nodes != a.Nodes || b.Depth != 3 || b.Subtrees < 2 || a.Subtrees != 0 {
		t.Fatalf("plain %+v, split %+v", a, b)
	}
	for _, args := range [][]string{
		{"-nats", "nats://127.0.0.1:1", puzzle},
		{"-algo", "lp", "-split", "2", puzzle},
		{"-split", "-1", puzzle},
	} {
		if code, _, errOut := runCmd(t, "", append([]string{"edgematch", "solve"}, args...)...); code != 2 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
	}
}

// TestEdgematchSplitJournal: a count stopped by -max-nodes and run again
// with the same -journal gives the uninterrupted count and placements,
// searching only the subtrees the journal lacks (a torn last line is
// dropped); a journal of another search, or of no search, is refused, and
// -journal needs -split.
func TestEdgematchSplitJournal(t *testing.T) {
	dir := t.TempDir()
	puzzle, journal := filepath.Join(dir, "p.txt"), filepath.Join(dir, "j.jsonl")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "5x5", "-colors", "3", "-frame", "2", "-seed", "4", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	type record struct {
		Solutions    int64  `json:"solutions"`
		Nodes        int64  `json:"nodes"`
		Subtrees     int    `json:"subtrees"`
		Resumed      int    `json:"resumed_subtrees"`
		ResumedNodes int64  `json:"resumed_nodes"`
		Error        string `json:"error"`
	}
	solve := func(args ...string) (int, record) {
		t.Helper()
		code, out, errOut := runCmd(t, "", append([]string{"edgematch", "solve", "-count", "-json"}, args...)...)
		var r record
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: exit %d, %q %s", args, code, out, errOut)
		}
		return code, r
	}
	lines := func() []string {
		t.Helper()
		data, err := os.ReadFile(journal)
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitAfter(string(data), "\n")
	}
	_, full := solve("-split", "2", "-workers", "1", puzzle)
	if full.Solutions < 2 || full.Subtrees < 4 {
		t.Fatalf("the uninterrupted count: %+v", full)
	}
	// A journal whose header a killed run left torn is started again.
	os.WriteFile(journal, []byte(`{"journal":"tessera edg`), 0o644)
	code, first := solve("-split", "2", "-workers", "1", "-max-nodes", fmt.Sprint(full.Nodes/3), "-journal", journal, puzzle)
	searched := len(lines()) - 2 // the header, and the empty string after the last newline
	if code == 0 || !strings.Contains(first.Error, "budget") || searched < 1 || searched >= full.Subtrees || first.Resumed != 0 {
		t.Fatalf("the stopped count: exit %d, %+v, %d subtrees in the journal", code, first, searched)
	}
	f, err := os.OpenFile(journal, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"subtree":99,"prefix":"1/0`) // a run killed while writing
	f.Close()
	// Subtrees recorded with solutions are counted again (their counts are
	// not trusted), and not recorded twice.
	withSolutions := func() int {
		t.Helper()
		data, _ := os.ReadFile(journal)
		return len(regexp.MustCompile(`"solutions":[1-9]`).FindAll(data, -1))
	}
	recount := withSolutions()
	code, resumed := solve("-split", "2", "-workers", "2", "-journal", journal, puzzle)
	if code != 0 || resumed.Solutions != full.Solutions || resumed.Nodes != full.Nodes || resumed.Resumed != searched-recount || resumed.ResumedNodes == 0 && searched > recount {
		t.Fatalf("resumed: exit %d, %+v; uninterrupted %+v; %d in the journal", code, resumed, full, searched)
	}
	if l := lines(); len(l) != full.Subtrees+2 || l[len(l)-1] != "" {
		t.Fatalf("the journal has %d lines for %d subtrees, last %q", len(l), full.Subtrees, l[len(l)-1])
	}
	code, again := solve("-split", "2", "-journal", journal, puzzle)
	if code != 0 || again.Solutions != full.Solutions || again.Resumed != full.Subtrees-withSolutions() || withSolutions() == 0 {
		t.Fatalf("all in the journal: exit %d, %+v", code, again)
	}
	notJournal := filepath.Join(dir, "other.txt")
	os.WriteFile(notJournal, []byte("5 5\n"), 0o644)
	oneLine := filepath.Join(dir, "one-line.txt")
	os.WriteFile(oneLine, []byte("5 5"), 0o644) // no newline: not a torn journal either
	for _, args := range [][]string{
		{"-split", "2", "-journal", oneLine, puzzle},
		{"-split", "3", "-journal", journal, puzzle},                   // another depth
		{"-split", "2", "-order", "rows", "-journal", journal, puzzle}, // another order
		{"-split", "2", "-journal", notJournal, puzzle},                // not a journal
		{"-journal", journal, puzzle},                                  // no split
	} {
		if code, _, errOut := runCmd(t, "", append([]string{"edgematch", "solve", "-count"}, args...)...); code != 2 {
			t.Fatalf("%v: exit %d, %s", args, code, errOut)
		}
	}
	if data, _ := os.ReadFile(oneLine); string(data) != "5 5" {
		t.Fatalf("a file that is no journal was changed to %q", data)
	}
}

// TestSamegameDist: -dist runs the distributed NRPA, whose clicks replay
// to the printed score; -dist with another solver is a usage error.
func TestSamegameDist(t *testing.T) {
	code, out, errOut := runCmd(t, "", "samegame", "solve", "-algo", "nrpa", "-level", "2", "-iterations", "10", "-dist", "3",
		"-seed", "4", "-timeout", "0", "-json", standardFile+":2")
	var got catalog.SameGameRecord
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	data, _ := os.ReadFile(standardFile)
	set, err := samegame.ParseSet(strings.NewReader(string(data)), samegame.Standard)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := samegame.ParseMoves(got.Moves)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := samegame.Replay(set[1].Board, moves); err != nil || r.Score != got.Score || got.Score <= 0 || got.Playouts != 100 {
		t.Fatalf("printed %d, replayed %d (%v), %d playouts", got.Score, r.Score, err, got.Playouts)
	}
	if code, _, _ := runCmd(t, "", "samegame", "solve", "-algo", "beam", "-dist", "2", standardFile+":2"); code != 2 {
		t.Fatalf("-dist with beam: exit %d", code)
	}
	if code, _, _ := runCmd(t, "", "samegame", "solve", "-algo", "nrpa", "-nats", "nats://127.0.0.1:1", standardFile+":2"); code != 2 {
		t.Fatalf("-nats without -dist: exit %d", code)
	}
	if code, _, _ := runCmd(t, "", "samegame", "solve", "-algo", "nrpa", "-dist", "2", "-cpu", standardFile+":2"); code != 2 {
		t.Fatalf("-dist with -cpu: exit %d", code)
	}
}

// TestSolveOnJobs: the solve verbs with -nats send their searches to the
// workers of an embedded server on loopback and print what the in-process
// runs print: the same count and the same clicks; the partial searches
// (partial, tiles, lns) all solve the 4x4 both ways (which seed's board
// comes first varies).
func TestSolveOnJobs(t *testing.T) {
	c, url := startJobs(t, jobs.ServerOptions{Dir: t.TempDir(), Addr: "127.0.0.1:0"}, 2)
	defer c.Close()
	dir := t.TempDir()
	puzzle := filepath.Join(dir, "p.txt")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "2", "-frame", "1", "-seed", "3", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"edgematch", "solve", "-count", "-split", "2", puzzle},
		{"edgematch", "solve", "-algo", "lns", "-workers", "2", "-max-moves", "50", "-timeout", "0", puzzle},
		{"edgematch", "solve", "-algo", "partial", "-workers", "2", "-max-nodes", "100000", "-timeout", "0", puzzle},
		{"edgematch", "solve", "-algo", "tiles", "-workers", "2", "-max-nodes", "100000", "-timeout", "0", puzzle},
		{"samegame", "solve", "-algo", "nrpa", "-level", "2", "-iterations", "8", "-dist", "3", "-seed", "2", "-timeout", "0", standardFile + ":3"},
	} {
		local, remote := runLocalAndRemote(t, fmt.Sprint(args), url, args...)
		// The timings differ; everything else is the same.
		strip := func(s string) string {
			var keep []string
			for line := range strings.Lines(s) {
				if !strings.HasPrefix(line, "search") {
					keep = append(keep, line)
				}
			}
			return strings.Join(keep, "")
		}
		if args[2] == "-algo" && (args[3] == "lns" || args[3] == "partial" || args[3] == "tiles") {
			if !strings.Contains(remote, "score    24/24 (solved)") || !strings.Contains(local, "score    24/24 (solved)") {
				t.Fatalf("%s: in process\n%s\nas jobs\n%s", args[3], local, remote)
			}
			continue
		}
		if strip(local) != strip(remote) {
			t.Fatalf("%v: in process\n%s\nas jobs\n%s", args, local, remote)
		}
	}
}
