package main

import (
	"io"
	"os"
	"time"

	"github.com/servebench/servebench/servebench/record"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/servebench/servebench/servebench"
)

// progressBar draws a run's progress as a bar that redraws itself in place.
// It is a servebench.Observer.
type progressBar struct {
	w   io.Writer
	bar *progressbar.ProgressBar // nil until Started
}

// newProgress returns the progress display for w: a bar when w is a
// terminal, nothing (nil) otherwise, so a redirected stderr never fills with
// carriage-return frames.
func newProgress(w io.Writer) servebench.Observer {
	if !isTerminal(w) {
		return nil
	}
	return &progressBar{w: w}
}

// isTerminal reports whether w is a file open on a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Started sizes the bar to the schedule.
func (p *progressBar) Started(scheduled int) {
	p.bar = progressbar.NewOptions(scheduled,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionSetDescription("requests"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
}

// Ended advances the bar by one request; the bar is safe for concurrent use.
func (p *progressBar) Ended(*record.Outcome) { _ = p.bar.Add(1) }

// Finished clears the bar.
func (p *progressBar) Finished() { _ = p.bar.Finish() }
