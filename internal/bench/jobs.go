package bench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"tessera/internal/jobs"
)

// PrintJobs writes the records of `tessera jobs list`: one JSON object a
// line without the results with asJSON, else a table with the first line
// of each error.
func PrintJobs(w io.Writer, all []jobs.Status, asJSON bool) error {
	if asJSON {
		for _, st := range all {
			st.Result = nil
			if err := WriteJSON(w, st); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "id\tkind\tstate\tsubmitted\tseconds\tattempts\tworker\terror")
	for _, st := range all {
		firstLine, _, _ := strings.Cut(st.Error, "\n")
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%d\t%s\t%s\n", st.ID, st.Kind, st.State, st.Submitted.Format(time.DateTime),
			st.Seconds(), st.Attempts, st.Worker, firstLine)
	}
	return tw.Flush()
}
