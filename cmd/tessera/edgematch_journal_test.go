package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestJournalCountsNotTrusted: a count resumed from a journal whose
// solution counts were edited reports the true count: subtrees recorded
// with solutions are searched again (issue 38, item 7: editing one number
// reported 343 solutions instead of 260).
func TestJournalCountsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	puzzle, journal := filepath.Join(dir, "p.txt"), filepath.Join(dir, "j.jsonl")
	if code, _, errOut := runCmd(t, "", "edgematch", "generate", "-size", "4x4", "-colors", "3", "-seed", "1", "-o", puzzle); code != 0 {
		t.Fatal(errOut)
	}
	count := func() int64 {
		t.Helper()
		code, out, errOut := runCmd(t, "", "edgematch", "solve", "-count", "-split", "2", "-journal", journal, "-json", puzzle)
		var r struct{ Solutions int64 }
		if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
			t.Fatalf("exit %d %v: %s %s", code, err, out, errOut)
		}
		return r.Solutions
	}
	want := count()
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`"solutions":[1-9][0-9]*`)
	if !re.Match(data) {
		t.Fatalf("no subtree with solutions in %s", data)
	}
	edited := re.ReplaceAll(data, []byte(`"solutions":999999`))
	if err := os.WriteFile(journal, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != want {
		t.Fatalf("resumed from an edited journal: %d solutions, want %d", got, want)
	}
}
