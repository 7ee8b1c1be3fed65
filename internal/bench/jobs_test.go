package bench

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tessera/internal/jobs"
)

// PrintJobs: a table with the first line of each error, or JSON lines
// without the results.
func TestPrintJobs(t *testing.T) {
	at := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	all := []jobs.Status{
		{ID: "a", Kind: "jobs.noop", State: jobs.Done, Submitted: at, Result: json.RawMessage(`42`)},
		{ID: "b", Kind: "edgematch.solve", State: jobs.Failed, Submitted: at, Attempts: 2, Error: "first line\nsecond line"},
	}
	var table, lines strings.Builder
	if err := PrintJobs(&table, all, false); err != nil {
		t.Fatal(err)
	}
	if got := table.String(); !strings.Contains(got, "b   edgematch.solve  failed  2026-11-28 10:00:00") || !strings.Contains(got, "first line\n") || strings.Contains(got, "second line") {
		t.Errorf("table:\n%s", got)
	}
	if err := PrintJobs(&lines, all, true); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(lines.String()), "\n")
	var st jobs.Status
	if len(rows) != 2 || json.Unmarshal([]byte(rows[0]), &st) != nil || st.ID != "a" || st.Result != nil || strings.Contains(rows[0], "42") {
		t.Errorf("JSON lines:\n%s", lines.String())
	}
}
