package score

import (
	"bytes"
	"runtime"
	"sync"
)

// jsonlLine is one non-blank line of a JSONL input.
type jsonlLine struct {
	number int // 1-based
	raw    []byte
}

// splitJSONL returns the non-blank lines of a JSONL input with their
// numbers (a trailing carriage return is dropped).
func splitJSONL(data []byte) []jsonlLine {
	lines := make([]jsonlLine, 0, bytes.Count(data, []byte{'\n'})+1)
	for number := 1; len(data) > 0; number++ {
		raw := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		raw = bytes.TrimSuffix(raw, []byte{'\r'})
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		lines = append(lines, jsonlLine{number: number, raw: raw})
	}
	return lines
}

// decodeJSONL decodes every line with decode, spread over the available
// CPUs (strict decoding costs microseconds a line, and a large run has
// millions). It returns the results in line order; when a line fails,
// bad is its index (the earliest failing line) and err its error, and only
// the results before bad are meaningful. Without a failure bad is
// len(lines).
func decodeJSONL[T any](lines []jsonlLine, decode func(jsonlLine) (T, error)) (out []T, bad int, err error) {
	out = make([]T, len(lines))
	errs := make([]error, len(lines))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(lines)/512))
	chunk := (len(lines) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(lines))
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				out[i], errs[i] = decode(lines[i])
				if errs[i] != nil {
					return // later lines of this chunk cannot matter
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return out, i, err
		}
	}
	return out, len(lines), nil
}
