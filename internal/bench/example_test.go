package bench_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"tessera/internal/bench"
)

// Example runs five items on three workers and prints them in item order
// as a table, then a summary line.
func Example() {
	w := &bench.Writer{W: os.Stdout, Header: "item\tsquare"}
	res, err := bench.Run(context.Background(), 5, bench.Options{Workers: 3, Timeout: time.Second},
		func(ctx context.Context, i int) int { return i * i },
		func(i int, r *int, cpu time.Duration) error { return w.Item(*r, fmt.Sprintf("%d\t%d", i, *r)) })
	if err != nil {
		panic(err)
	}
	w.Summary(nil, func(o io.Writer) { fmt.Fprintf(o, "%d items\n", len(res)) })
	// Output:
	// item  square
	// 0     0
	// 1     1
	// 2     4
	// 3     9
	// 4     16
	// 5 items
}
