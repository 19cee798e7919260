package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptedBy is the cause of a context that a signal cancelled.
type interruptedBy struct{ sig os.Signal }

func (e interruptedBy) Error() string { return "interrupted by " + e.sig.String() }

// Exit codes after an interruption, as shells report a process a signal
// ended: 128 + the signal's number.
const (
	exitSIGINT  = 130
	exitSIGTERM = 143
)

// interruptContext is cancelled by the first SIGINT or SIGTERM, which ends
// the requests in flight and records the rest as not sent, so that the
// run directory stays scorable. It then stops catching signals, so that a
// second Ctrl-C quits at once. stop releases the signals. After the
// command has written what it finished, interruptExit gives its exit code.
func interruptContext(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			fmt.Fprintf(stderr, "\n%v: ending the requests in flight and recording the rest as not sent (again to quit at once)\n", sig)
			cancel(interruptedBy{sig})
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(signals)
			close(done)
			cancel(nil)
		})
	}
}

// interruptExit reports whether a signal cancelled ctx and, if so, says
// so on stderr and returns the exit code: 130 after SIGINT, 143 after
// SIGTERM. The command calls it once what it finished is on disk.
func interruptExit(ctx context.Context, command string, stderr io.Writer) (int, bool) {
	var by interruptedBy
	if !errors.As(context.Cause(ctx), &by) {
		return 0, false
	}
	fmt.Fprintf(stderr, "%s: %v: the finished work is kept; nothing is claimed from the interrupted part\n", command, by)
	if by.sig == syscall.SIGTERM {
		return exitSIGTERM, true
	}
	return exitSIGINT, true
}

// withInterrupts runs body under interruptContext and returns its exit
// code, or, when a signal interrupted it, 130 (SIGINT) or 143 (SIGTERM)
// once body has returned, so that what body finished is on disk first.
func withInterrupts(command string, stderr io.Writer, body func(ctx context.Context) int) int {
	ctx, stop := interruptContext(stderr)
	defer stop()
	code := body(ctx)
	if ic, ok := interruptExit(ctx, command, stderr); ok {
		return ic
	}
	return code
}
