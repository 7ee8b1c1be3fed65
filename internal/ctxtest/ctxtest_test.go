package ctxtest

import (
	"context"
	"testing"
)

func TestCountdown(t *testing.T) {
	ctx := Countdown(context.Background(), 3)
	for i := range 3 {
		if err := ctx.Err(); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	for i := range 2 {
		if err := ctx.Err(); err != context.DeadlineExceeded {
			t.Fatalf("call %d after the budget: %v", i+1, err)
		}
	}
	if ctx.Done() != nil {
		t.Fatal("Done is not the background's")
	}
}
