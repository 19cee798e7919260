package score

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/synthrun"
	"github.com/servebench/servebench/servebench/record"
)

// readAhead passes every byte through in order, across block boundaries
// and at an exact multiple of the block, and hashes what it read.
func TestReadAheadPassesAndHashes(t *testing.T) {
	for _, size := range []int{0, 1, readAheadBlock, 3*readAheadBlock + 17} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		h := sha256.New()
		ra := newReadAhead(bytes.NewReader(data), h)
		got, err := io.ReadAll(ra)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("size %d: read %d bytes (%v)", size, len(got), err)
		}
		if want := sha256.Sum256(data); !bytes.Equal(h.Sum(nil), want[:]) {
			t.Fatalf("size %d: hash differs", size)
		}
		ra.Close()
	}
}

// Closing before the end stops the reading goroutine: Close returns with
// most of a long input unread.
func TestReadAheadCloseEarly(t *testing.T) {
	ra := newReadAhead(bytes.NewReader(make([]byte, 64*readAheadBlock)), nil)
	if _, err := io.ReadFull(ra, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	ra.Close()
}

// A read error reaches the reader after the bytes before it.
func TestReadAheadError(t *testing.T) {
	boom := fmt.Errorf("disk gone")
	ra := newReadAhead(io.MultiReader(strings.NewReader("abc"), errReader{boom}), nil)
	defer ra.Close()
	got, err := io.ReadAll(ra)
	if string(got) != "abc" || err != boom {
		t.Fatalf("read %q, %v", got, err)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// Stopping the line decoder after its first batch returns, however many
// lines are left (the scorer stops early when it declines a run).
func TestLineDecoderStopsEarly(t *testing.T) {
	dir := t.TempDir()
	if err := synthrun.Write(dir, 20*lineBatchSize, 2); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := startLineDecoder(f)
	b := <-dec.batches
	if len(b.outcomes) != lineBatchSize || b.outcomes[1].ID != "r1" || b.numbers[1] != 2 || b.err != nil {
		t.Fatalf("first batch: %d lines, second %q on line %d, %v", len(b.outcomes), b.outcomes[1].ID, b.numbers[1], b.err)
	}
	dec.stop()
}

// A run whose third line is a second attempt, in a file longer than the
// decoder's batches hold, is declined by the windowed join after its first
// batch and scored the compact way: the scorer returns, with every request
// offered and the one retried request's final attempt scored (before, the
// decoder waited for a batch that the abandoned pass never gave back).
func TestRunDirToRetriedRequestInLongFile(t *testing.T) {
	const n = 4 * lineBatches * lineBatchSize
	dir := t.TempDir()
	if err := synthrun.Write(dir, n, 4); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, record.OutcomesFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lines[2] = bytes.Replace(lines[2], []byte(`"attempt":1,`), []byte(`"attempt":2,`), 1)
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, requests := range []io.Writer{nil, io.Discard} {
		r, err := RunDirTo(dir, Options{}, requests)
		if err != nil {
			t.Fatal(err)
		}
		// Requests 0, 50, 100, … fail (synthrun.Outcome): 246 of 12,288;
		// r2 succeeds on its second attempt.
		if r.Offered != n || r.ProtocolSuccesses != n-246 {
			t.Fatalf("offered %d, successes %d; want %d and %d", r.Offered, r.ProtocolSuccesses, n, n-246)
		}
	}
}
