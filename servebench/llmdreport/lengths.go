package llmdreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench/record"
)

// lengths are the token counts of the successful requests, as their
// engine's usage reported them, counted by value.
type lengths struct {
	input, output lengthCounts
}

// lengthRecord is the part of an outcome record the lengths need.
type lengthRecord struct {
	Status       record.Status `json:"status"`
	PromptTokens *int          `json:"prompt_tokens"`
	OutputTokens *int          `json:"output_tokens"`
}

// readLengths reads the prompt and output token counts of the successful
// requests from an outcomes file, one line at a time, so that a run of any
// length is read in bounded memory (a counter per distinct length). A
// count the engine did not report is left out, never taken as zero.
func readLengths(path string) (lengths, error) {
	var l lengths
	f, err := os.Open(path)
	if err != nil {
		return l, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var r lengthRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return l, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if r.Status != record.StatusSuccess {
			continue
		}
		if r.PromptTokens != nil {
			l.input.add(*r.PromptTokens)
		}
		if r.OutputTokens != nil {
			l.output.add(*r.OutputTokens)
		}
	}
	if err := sc.Err(); err != nil {
		return l, fmt.Errorf("%s: %w", path, err)
	}
	return l, nil
}

// sequenceLength describes a length sample for scenario.load: "fixed"
// when every value is the same, "other" otherwise, with its mean, spread
// and range. An empty sample gives distribution "other" with value 0 and
// ok false: the schema requires the input length, and the caller says in
// the load's description that it is unknown.
func sequenceLength(xs *lengthCounts) (sl SequenceLength, ok bool) {
	s := sampleStatistics(UnitsCount, xs, "")
	if s == nil {
		return SequenceLength{Distribution: "other"}, false
	}
	lo, hi := int(*s.Min), int(*s.Max)
	sl = SequenceLength{Distribution: "other", Value: s.Mean, StdDev: s.Stddev, Min: &lo, Max: &hi}
	if lo == hi {
		sl = SequenceLength{Distribution: "fixed", Value: s.Mean}
	}
	if hi < 1 {
		sl.Max = nil // the schema's max is at least 1
	}
	return sl, true
}
