package scorer

import (
	"io"

	"github.com/servebench/servebench/servebench/report"
)

// runDirCounting is the scorer SetRunDirCounting installed.
var runDirCounting any

// SetRunDirCounting installs score's streamed run-directory scorer, whose
// options are of type O (score.Options). Package score calls it when it is
// initialised.
func SetRunDirCounting[O any](f func(dir string, opts O, out io.Writer) (*report.Report, int, error)) {
	runDirCounting = f
}

// RunDirCounting scores a run directory in bounded memory, as score.RunDirTo
// does on its streamed path, writing the request entries to out, and also
// counts the attempts (every line, retries included) sent before the
// window's end, for the generator's delivered rate. An input the streamed
// scorer leaves to the strict reader is schedule.ErrStreamDeclined: the
// caller then scores in memory. opts are score.Options.
func RunDirCounting[O any](dir string, opts O, out io.Writer) (*report.Report, int, error) {
	return runDirCounting.(func(string, O, io.Writer) (*report.Report, int, error))(dir, opts, out)
}
