package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"tessera/jigsaw/neural"
)

// The error distribution's lines and summary fields, and the head
// accuracies' report (NaN where nothing was measured).
func TestGapReports(t *testing.T) {
	es := gapErrors{st: neural.ErrorStats{Wrong: []int{0, 0, 3, 0, 1}, Flagged: []int{0, 0, 2, 0, 0}, VRight: []int{4, 0, 3, 0, 0}, VSeen: []int{5, 0, 4, 0, 0}}}
	want := "wrong answers by patches misplaced: 2: 3 (V below 1/2: 2) 4: 1 (V below 1/2: 0)\n" +
		"V right at 1/2 by patches misplaced (0: the truth; 2: one swap): 0: 80.0% 2: 75.0%\n"
	if got := es.text(); got != want {
		t.Errorf("text\n%q\nwant\n%q", got, want)
	}
	if got := wrongLine("x", neural.ErrorStats{}); got != "x: none\n" {
		t.Errorf("no wrong answers: %q", got)
	}
	sum := map[string]any{}
	es.fields(sum)
	b, _ := json.Marshal(sum)
	if want := `{"v_by_misplaced":[0.8,null,0.75,null,null],"v_by_misplaced_n":[5,0,4,0,0],"wrong_flagged":[0,0,2,0,0],"wrong_misplaced":[0,0,3,0,1]}`; string(b) != want {
		t.Errorf("fields %s\nwant %s", b, want)
	}
	acc := neural.Accuracies{P: 0.5, V: 0.25, PPlaced: []float64{1, 0.5}, VPlaced: []float64{math.NaN(), 0.25}}
	var buf bytes.Buffer
	GapHeadAccuracy(&buf, acc, 3, "central", 10, 7, false)
	if want := "10 puzzles 3x3, hints central: P 50.00%, V 25.00%\nplaced      P       V\n     0 100.00%       -\n     1  50.00%  25.00%\n"; buf.String() != want {
		t.Errorf("text\n%q\nwant\n%q", buf.String(), want)
	}
	buf.Reset()
	GapHeadAccuracy(&buf, acc, 3, "central", 10, 7, true)
	if want := `{"grid":3,"hints":"central","p":0.5,"p_placed":[1,0.5],"puzzles":10,"seed":7,"v":0.25,"v_placed":[null,0.25]}` + "\n"; buf.String() != want {
		t.Errorf("JSON %s\nwant %s", buf.String(), want)
	}
}
