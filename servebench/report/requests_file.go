package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
)

// ReadRequestScores reads a file of request entries, one JSON object per
// line, as every run writes requests.jsonl, and calls each with
// every entry in turn; the entry is reused for the next line. It holds one
// line at a time, so a file of any length is read in bounded memory. An
// error from each stops the reading and is returned; a malformed line is
// an error naming the file, the line and the field.
//
// A line in the scorer's own plain shape is read by a fast path without
// reflection; any other line (escapes, non-ASCII text, keys out of the
// ordinary, anything malformed) is decoded strictly, as every line was
// before, so that what is accepted and every error are the same.
func ReadRequestScores(path string, each func(*RequestScore) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read request entries: %w", err)
	}
	defer f.Close()
	lines := lineReader{r: bufio.NewReaderSize(f, 256<<10)}
	var rs RequestScore
	var names stringTable
	for line := 1; ; line++ {
		text, err := lines.next()
		if len(bytes.TrimSpace(text)) > 0 {
			if !decodeRequestScoreFast(text, &rs, &names) {
				rs = RequestScore{}
				if derr := strictjson.Decode(text, &rs); derr != nil {
					return fmt.Errorf("%s:%d: %w", path, line, record.DescribeJSONError(derr))
				}
			}
			if cerr := each(&rs); cerr != nil {
				return cerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
}

// lineReader returns a file's lines, each valid until the next call,
// without a copy of a line that fits the reader's buffer.
type lineReader struct {
	r    *bufio.Reader
	long []byte // a line longer than the buffer, put together
}

// next returns the next line with its newline (the last one may have
// none) and the error that ended it, as bufio.Reader.ReadBytes does.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.r.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return b, err
	}
	l.long = append(l.long[:0], b...)
	for errors.Is(err, bufio.ErrBufferFull) {
		b, err = l.r.ReadSlice('\n')
		l.long = append(l.long, b...)
	}
	return l.long, err
}

// SetRunDir says where the report's run directory is, so that
// EachRequest finds a relative RequestsFile in it. ReadFile sets it.
func (r *Report) SetRunDir(dir string) { r.runDir = dir }

// EachRequest calls each with every request entry in turn: those the
// report holds (Requests), or, when it holds none and names a
// RequestsFile, those of the file, read one line at a time (the entry is
// then reused for the next line: copy what you keep). A relative
// RequestsFile is found in the run directory (SetRunDir).
func (r *Report) EachRequest(each func(*RequestScore) error) error {
	if len(r.Requests) > 0 || r.RequestsFile == "" {
		for i := range r.Requests {
			if err := each(&r.Requests[i]); err != nil {
				return err
			}
		}
		return nil
	}
	path := r.RequestsFile
	if !filepath.IsAbs(path) {
		if r.runDir == "" {
			return fmt.Errorf("request entries: the report keeps them in %s of its run directory, and the directory is not known (SetRunDir)", path)
		}
		path = filepath.Join(r.runDir, path)
	}
	return ReadRequestScores(path, each)
}

// LoadRequests fills Requests from the RequestsFile when the report holds
// no entries, for readers that compare or resample them in memory.
func (r *Report) LoadRequests() error {
	if len(r.Requests) > 0 || r.RequestsFile == "" {
		return nil
	}
	var all []RequestScore
	if err := r.EachRequest(func(rs *RequestScore) error { all = append(all, *rs); return nil }); err != nil {
		return err
	}
	r.Requests = all
	return nil
}
