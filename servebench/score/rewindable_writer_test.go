package score

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/internal/synthrun"
	"github.com/servebench/servebench/servebench/record"
)

// Written to a regular file (one pass, truncated back on a decline), the
// request entries are the bytes a buffer gets (two passes): for a plain
// run, and for one whose join declines after the decoder's first batches
// (a second attempt on line 3,001 of a long file), whose file then holds
// each request once. The file starts after what it held before.
func TestRequestEntriesToFileMatchBuffer(t *testing.T) {
	const n = 4 * lineBatches * lineBatchSize
	for _, retried := range []bool{false, true} {
		dir := t.TempDir()
		if err := synthrun.Write(dir, n, 4); err != nil {
			t.Fatal(err)
		}
		if retried {
			path := filepath.Join(dir, record.OutcomesFile)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(data, []byte("\n"))
			// Past the entries' 256 KiB write buffer: some were written.
			lines[3000] = bytes.Replace(lines[3000], []byte(`"attempt":1,`), []byte(`"attempt":2,`), 1)
			if err := os.WriteFile(path, bytes.Join(lines, nil), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		want, err := RunDirTo(dir, Options{}, &buf)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(t.TempDir(), "requests.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("head\n"); err != nil {
			t.Fatal(err)
		}
		got, err := RunDirTo(dir, Options{}, f)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		written, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(written, append([]byte("head\n"), buf.Bytes()...)) {
			t.Fatalf("retried %v: the file holds %d bytes, the buffer %d", retried, len(written), buf.Len())
		}
		if lines := bytes.Count(buf.Bytes(), []byte("\n")); lines != n {
			t.Fatalf("retried %v: %d entries, want %d", retried, lines, n)
		}
		if got.Offered != want.Offered || got.ProtocolSuccesses != want.ProtocolSuccesses || got.Inputs != want.Inputs {
			t.Fatalf("retried %v: reports differ", retried)
		}
	}
}
