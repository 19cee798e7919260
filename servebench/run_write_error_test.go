package servebench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/score"
)

// fullDisk is outcomes.jsonl on a disk with room bytes left: the write
// that does not fit writes what fits and fails with ENOSPC, as a real full
// disk does. Embedding the file gives it Truncate and Seek.
type fullDisk struct {
	*os.File
	room int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.room {
		d.room -= len(p)
		return d.File.Write(p)
	}
	n, _ := d.File.Write(p[:d.room])
	d.room = 0
	return n, &os.PathError{Op: "write", Path: d.Name(), Err: syscall.ENOSPC}
}

// uncuttableFullDisk is a full disk whose file cannot be cut back: the
// partial record stays as a torn last line.
type uncuttableFullDisk struct{ d *fullDisk }

func (u uncuttableFullDisk) Write(p []byte) (int, error) { return u.d.Write(p) }

// quickAnswerServer answers every request with a short successful stream.
func quickAnswerServer(t *testing.T) *ssetest.Server {
	return ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.TextChunk("ok", nil, nil))
		w.Event(ssetest.TextChunk("", nil, "stop"))
		w.Done()
	})
}

// writeErrorRun runs 40 requests at 20 per second into an outcome file with
// room for about three records.
func writeErrorRun(t *testing.T, srv *ssetest.Server, wrap func(*os.File) io.Writer) (*servebench.RunResult, error) {
	cfg := servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"p","max_tokens":4}
`),
		Arrival: constant(t, 20), Count: 40, OutputDir: t.TempDir(),
		Client: &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointCompletions},
	}
	servebench.SetOutcomeSink(&cfg, wrap)
	return servebench.Run(context.Background(), cfg)
}

// recordRoom is room for three records and part of a fourth.
const recordRoom = 3*420 + 100

// TestRunStopsAtOnceWhenTheOutcomeFileCannotBeWritten: a full disk stops
// the dispatch at once (the server sees no more requests), keeps every
// record written so far intact, and leaves a run that scores as
// interrupted and not valid.
func TestRunStopsAtOnceWhenTheOutcomeFileCannotBeWritten(t *testing.T) {
	srv := quickAnswerServer(t)
	res, err := writeErrorRun(t, srv, func(f *os.File) io.Writer { return &fullDisk{File: f, room: recordRoom} })
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "outcome file could not be written") {
		t.Fatalf("run error %v, want the outcome file's ENOSPC", err)
	}
	if res == nil || res.Report == nil {
		t.Fatal("no report: the run must still be scored")
	}
	kept := len(outcomesOf(t, res))
	if kept == 0 || kept > 4 {
		t.Fatalf("%d records kept, want the 1 to 4 that fit", kept)
	}
	served := len(srv.Bodies())
	// The 40 requests are 50 ms apart: had the dispatch gone on, the
	// server would have seen all of them.
	if served > kept+4 {
		t.Errorf("the server saw %d requests after %d records were written: the dispatch went on after the write error", served, kept)
	}
	if res.Report.Valid || !strings.Contains(strings.Join(res.Report.InvalidReasons, "; "), "the outcome file could not be written") {
		t.Errorf("report valid %v, reasons %q", res.Report.Valid, res.Report.InvalidReasons)
	}
	data, rerr := os.ReadFile(filepath.Join(res.Dir, record.OutcomesFile))
	if rerr != nil {
		t.Fatal(rerr)
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	if !bytes.HasSuffix(data, []byte("\n")) || len(lines) != kept {
		t.Fatalf("outcomes.jsonl holds %d lines (ends in a newline: %v), want the %d complete records", len(lines), bytes.HasSuffix(data, []byte("\n")), kept)
	}
	for i, l := range lines {
		if !json.Valid(l) {
			t.Errorf("line %d is not a complete record: %q", i+1, l)
		}
	}
	rep, err := score.RunDir(res.Dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%d of 40 offered requests have no outcome record", 40-kept)
	if rep.Valid || !strings.Contains(strings.Join(rep.InvalidReasons, "; "), want) {
		t.Errorf("re-scored: valid %v, reasons %q, want one saying %q", rep.Valid, rep.InvalidReasons, want)
	}
}

// TestScoreRunDirScoresTheLinesBeforeATornLastLine: when the partial
// record cannot be cut off, the torn last line is reported with its line
// number, the complete lines before it are scored, and the torn request
// counts as unrecorded.
func TestScoreRunDirScoresTheLinesBeforeATornLastLine(t *testing.T) {
	srv := quickAnswerServer(t)
	res, err := writeErrorRun(t, srv, func(f *os.File) io.Writer {
		return uncuttableFullDisk{&fullDisk{File: f, room: recordRoom}}
	})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("run error %v, want ENOSPC", err)
	}
	path := filepath.Join(res.Dir, record.OutcomesFile)
	data, _ := os.ReadFile(path)
	kept := bytes.Count(data, []byte("\n")) // the complete records before the torn one
	if bytes.HasSuffix(data, []byte("\n")) {
		t.Fatalf("the file ends in a newline: no torn line to test (%d bytes)", len(data))
	}
	rep, err := score.RunDir(res.Dir, score.Options{})
	if err != nil {
		t.Fatalf("a torn last line made the directory unscorable: %v", err)
	}
	reasons := strings.Join(rep.InvalidReasons, "; ")
	if want := fmt.Sprintf("%s:%d: the last line is torn", path, kept+1); !strings.Contains(reasons, want) {
		t.Errorf("invalid reasons %q lack %q", reasons, want)
	}
	if want := fmt.Sprintf("%d of 40 offered requests have no outcome record", 40-kept); !strings.Contains(reasons, want) {
		t.Errorf("invalid reasons %q lack %q", reasons, want)
	}
	if rep.Valid || rep.StatusCounts[record.StatusSuccess] != kept {
		t.Errorf("valid %v, %d successes scored, want not valid and the %d complete records", rep.Valid, rep.StatusCounts[record.StatusSuccess], kept)
	}
}

// TestAFailedReportWriteLeavesNoPartialReport: report.json is written whole
// or not at all, so a full disk cannot leave an empty or cut report that
// would make `score --run` fail on the directory. Here the write fails
// because its temporary file's name is taken by a directory.
func TestAFailedReportWriteLeavesNoPartialReport(t *testing.T) {
	srv := quickAnswerServer(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, record.ReportFile+".tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"p","max_tokens":4}
`),
		Arrival: constant(t, 50), Count: 2, OutputDir: dir,
		Client: &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointCompletions},
	})
	if err == nil {
		t.Fatal("the report could not be written, yet the run returned no error")
	}
	if _, serr := os.Stat(filepath.Join(dir, record.ReportFile)); !errors.Is(serr, os.ErrNotExist) {
		t.Fatalf("report.json exists after its write failed (%v)", serr)
	}
	if _, err := score.RunDir(dir, score.Options{}); err != nil {
		t.Fatalf("score --run on the directory: %v", err)
	}
}
