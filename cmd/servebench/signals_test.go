package main

import (
	"context"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestInterruptExitCodes: 130 after SIGINT, 143 after SIGTERM, as shells
// report them; a context cancelled otherwise is no interruption.
func TestInterruptExitCodes(t *testing.T) {
	for _, tc := range []struct {
		sig  os.Signal
		want int
	}{{os.Interrupt, 130}, {syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(interruptedBy{tc.sig})
		var stderr strings.Builder
		code, ok := interruptExit(ctx, "servebench merge", &stderr)
		if !ok || code != tc.want {
			t.Errorf("%v: exit %d (%v), want %d", tc.sig, code, ok, tc.want)
		}
		if want := "servebench merge: interrupted by " + tc.sig.String(); !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("%v: stderr %q, want it to start with %q", tc.sig, stderr.String(), want)
		}
	}
	if got := withInterrupts("servebench merge", io.Discard, func(context.Context) int { return 4 }); got != 4 {
		t.Errorf("an uninterrupted command exits %d, want its own 4", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := interruptExit(ctx, "servebench run", io.Discard); ok {
		t.Error("a plain cancellation counted as an interruption")
	}
}
