package score

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// ReadRequestScores reads a file of request entries, one JSON object per
// line, as a BoundedMemory run writes requests.jsonl, and calls each with
// every entry in turn; the entry is reused for the next line. It holds one
// line at a time, so a file of any length is read in bounded memory. An
// error from each stops the reading and is returned; a malformed line is
// an error naming the file, the line and the field.
func ReadRequestScores(path string, each func(*report.RequestScore) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read request entries: %w", err)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	var rs report.RequestScore
	for line := 1; ; line++ {
		text, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(text)) > 0 {
			rs = report.RequestScore{}
			if derr := strictjson.Decode(text, &rs); derr != nil {
				return fmt.Errorf("%s:%d: %w", path, line, record.DescribeJSONError(derr))
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
