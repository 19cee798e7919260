package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interruptContext is cancelled by the first SIGINT or SIGTERM, which ends
// the requests in flight and records the rest as not sent, so that the
// run directory stays scorable. It then stops catching signals, so that a
// second Ctrl-C quits at once. stop releases the signals.
func interruptContext(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			fmt.Fprintf(stderr, "\n%v: ending the requests in flight and recording the rest as not sent (again to quit at once)\n", sig)
			cancel()
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(signals)
			close(done)
			cancel()
		})
	}
}
