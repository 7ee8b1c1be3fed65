package bench

import (
	"slices"
	"testing"
)

func TestParseList(t *testing.T) {
	for _, c := range []struct {
		s    string
		want []int
	}{{"", []int{1, 2, 3, 4, 5}}, {"3", []int{3}}, {"1-3,5", []int{1, 2, 3, 5}}, {"5, 2-3,2", []int{5, 2, 3}}} {
		if got, err := ParseList(c.s, 5); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("ParseList(%q) = %v, %v; want %v", c.s, got, err, c.want)
		}
	}
	for _, s := range []string{"0", "6", "3-2", "x", "1-", "1,,2", "-1"} {
		if got, err := ParseList(s, 5); err == nil {
			t.Errorf("ParseList(%q) = %v; want an error", s, got)
		}
	}
}
