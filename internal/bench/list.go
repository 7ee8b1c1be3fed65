package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ParseList reads a list of item numbers from 1 to n, such as "1-10,38,40"
// (the -instances or -boards of a bench), in the order given without
// repeats; "" is all of them, 1 to n.
func ParseList(s string, n int) ([]int, error) {
	var list []int
	if s == "" {
		for i := range n {
			list = append(list, i+1)
		}
		return list, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		a, b, isRange := strings.Cut(strings.TrimSpace(part), "-")
		lo, err1 := strconv.Atoi(a)
		hi, err2 := lo, error(nil)
		if isRange {
			hi, err2 = strconv.Atoi(b)
		}
		if err1 != nil || err2 != nil || lo < 1 || hi < lo || hi > n {
			return nil, fmt.Errorf("%q is not a number or range within 1..%d", part, n)
		}
		for i := lo; i <= hi; i++ {
			if !slices.Contains(list, i) {
				list = append(list, i)
			}
		}
	}
	return list, nil
}
