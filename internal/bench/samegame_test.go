package bench

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"tessera/samegame"
)

// TestPrintCompareNotCleared: the means are over the boards an algorithm
// cleared, and one that cleared none shows no mean.
func TestPrintCompareNotCleared(t *testing.T) {
	s := SameGameCompareSummary{Boards: 4, Rules: "dust", Algos: []string{"a", "b"},
		Cleared: map[string]int{"a": 4, "b": 0}, MeanClicks: map[string]float64{"a": 12.5},
		MeanExcess: map[string]float64{"a": 0.25}, AtBest: map[string]int{"a": 3}, AtOptimum: map[string]int{},
		MeanSeconds: map[string]float64{"a": 0.1}, MsPerMove: map[string]float64{"a": 8}, Excess: map[string][]int{"a": {3, 1}}}
	var buf bytes.Buffer
	s.Print(&buf, time.Second)
	words := strings.Join(strings.Fields(buf.String()), " ")
	for _, want := range []string{"not cleared 0 4", "mean clicks 12.50 –", "0 (best) 3 0"} {
		if !strings.Contains(words, want) {
			t.Errorf("missing %q in:\n%s", want, buf.String())
		}
	}
}

// Issue 22, item 12: a samegame bench where a board failed prints every
// board and the summary, then returns ErrSameGameFailed (exit 1).
func TestSameGameBenchFailedBoards(t *testing.T) {
	entries := SameGameBoards(2, 1, 8, 6, 5, samegame.Dust, 0)
	for _, algos := range [][]string{{"exact"}, {"exact", "dfs"}} {
		var out bytes.Buffer
		b := &SameGame{Entries: entries, List: []int{1, 2}, Rules: samegame.Dust, Algos: algos, Timeout: time.Nanosecond, Workers: 1, JSON: true}
		_, err := b.Run(t.Context(), &out)
		if !errors.Is(err, ErrSameGameFailed) || !strings.Contains(out.String(), `"summary":true`) {
			t.Errorf("%v: %v\n%s", algos, err, out.String())
		}
	}
}
