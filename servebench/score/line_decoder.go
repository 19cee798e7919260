package score

import (
	"errors"
	"io"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// outcomeBatch is a run of decoded lines handed from the decoding
// goroutine to the scoring one.
type outcomeBatch struct {
	numbers  []int
	outcomes []record.Outcome
	// checks[k] is checkOutcomeAlone of outcomes[k], run on the decoding
	// goroutine.
	checks []outcomeCheck
	err    error
}

// The decoder's batches: lineBatchSize lines each, lineBatches of them
// in all, so that decoding runs that far ahead of scoring.
const (
	lineBatchSize = 512
	lineBatches   = 6
)

// lineDecoder decodes outcomes.jsonl on a goroutine of its own, in
// batches, so that decoding and scoring use two cores. The scorer ranges
// over batches and hands each back with release; stop ends the decoding
// early (it must be called, also after the last batch).
type lineDecoder struct {
	batches chan *outcomeBatch
	free    chan *outcomeBatch
	quit    chan struct{}
}

// startLineDecoder starts decoding the lines of r.
func startLineDecoder(r io.Reader) *lineDecoder {
	d := &lineDecoder{batches: make(chan *outcomeBatch, lineBatches), free: make(chan *outcomeBatch, lineBatches),
		quit: make(chan struct{})}
	for range lineBatches {
		d.free <- &outcomeBatch{outcomes: make([]record.Outcome, lineBatchSize), checks: make([]outcomeCheck, lineBatchSize)}
	}
	go d.decode(r)
	return d
}

// release hands a batch back for the decoder to fill again.
func (d *lineDecoder) release(b *outcomeBatch) { d.free <- b }

// stop ends the decoding and waits until the decoder has returned; the
// batches not released are dropped.
func (d *lineDecoder) stop() {
	close(d.quit)
	for range d.batches {
	}
}

// errDecoderStopped ends the decoder's reading when stop was called.
var errDecoderStopped = errors.New("decoding stopped")

// decode fills batches until the end of r, a line that does not decode
// (the last batch then carries the error) or stop.
func (d *lineDecoder) decode(r io.Reader) {
	defer close(d.batches)
	b, ok := d.next()
	if !ok {
		return
	}
	n := 0
	err := eachLine(r, func(number int, line []byte) error {
		o := &b.outcomes[n]
		if !record.DecodeFast(line, o) {
			*o = record.Outcome{}
			if strictjson.Decode(line, o) != nil {
				return schedule.ErrStreamDeclined
			}
		}
		b.checks[n] = checkOutcomeAlone(o)
		b.numbers = append(b.numbers, number)
		n++
		if n == lineBatchSize {
			if !d.send(b) {
				return errDecoderStopped
			}
			if b, ok = d.next(); !ok {
				return errDecoderStopped
			}
			n = 0
		}
		return nil
	})
	if b == nil {
		return
	}
	b.outcomes, b.checks, b.err = b.outcomes[:n], b.checks[:n], err
	d.send(b)
}

// next takes a free batch, emptied; false once stopped.
func (d *lineDecoder) next() (*outcomeBatch, bool) {
	select {
	case b := <-d.free:
		b.numbers, b.outcomes, b.checks, b.err = b.numbers[:0], b.outcomes[:lineBatchSize], b.checks[:lineBatchSize], nil
		return b, true
	case <-d.quit:
		return nil, false
	}
}

// send hands a full batch to the scorer; false once stopped.
func (d *lineDecoder) send(b *outcomeBatch) bool {
	select {
	case d.batches <- b:
		return true
	case <-d.quit:
		return false
	}
}
