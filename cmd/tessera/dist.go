package main

import (
	"context"
	"flag"

	"tessera/internal/dist"
	"tessera/internal/jobs"
)

// The job kinds of the distributed searches (package dist registers them)
// run on every worker of this binary.
var _ = dist.SubtreeKind

// solveNATSFlag defines -nats on a solve verb whose search runs as jobs.
func solveNATSFlag(fs *flag.FlagSet, what string) *string {
	return fs.String("nats", "", "run "+what+" as jobs on the workers of this NATS server or cluster (`URL`; \"tessera worker -nats URL\" joins it); empty: in this process")
}

// solveClient connects to -nats (nil and a no-op close when url is empty).
func solveClient(ctx context.Context, url string) (*jobs.Client, func(), error) {
	if url == "" {
		return nil, func() {}, nil
	}
	c, err := jobs.Connect(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return c, c.Close, nil
}
