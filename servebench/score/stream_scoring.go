package score

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// streamScoring is what the streamed scorers share: the tally, the audits,
// and the request entries written to a file as they are scored rather than
// kept.
type streamScoring struct {
	t      *scoreTally
	audits *auditTally
	enc    *json.Encoder
	bw     *bufio.Writer
	// rs is the entry emit fills, reused from one request to the next:
	// the tally copies what it keeps of it.
	rs report.RequestScore
}

// newStreamScoring starts a streamed scoring of a run of this shape;
// out, when set, takes the request entries as JSON lines.
func newStreamScoring(set scoreSetup, shape runShape, out io.Writer) *streamScoring {
	sc := &streamScoring{t: newScoreTally(set, false), audits: newAuditTally()}
	sc.t.shape(shape)
	if out != nil {
		sc.bw = bufio.NewWriterSize(out, 256<<10)
		sc.enc = json.NewEncoder(sc.bw)
	}
	return sc
}

// close releases the populations' temporary files.
func (sc *streamScoring) close() { sc.t.pop.close() }

// emit scores one request (a truncated turn outside the window only marks
// its session) and writes its entry.
func (sc *streamScoring) emit(rec *scoreRecord) error {
	if rec.outsideWindow {
		sc.t.sessions.markTruncated(rec.session)
		return nil
	}
	sc.rs = report.RequestScore{}
	sc.t.add(rec, &sc.rs)
	if sc.enc != nil {
		return sc.enc.Encode(&sc.rs)
	}
	return nil
}

// finish completes the report once every request was emitted. When the
// tally found a steady window, steady reads the outcomes once more and
// hands each record to add.
func (sc *streamScoring) finish(steady func(add func(*scoreRecord) error) error) (*report.Report, error) {
	if sc.t.r.Offered == 0 {
		return nil, schedule.ErrStreamDeclined // the in-memory path says why
	}
	if sc.bw != nil {
		if err := sc.bw.Flush(); err != nil {
			return nil, err
		}
	}
	rep, err := sc.t.finish()
	if err != nil {
		return nil, err
	}
	if w := sc.t.steadyWindow; w != nil {
		add := func(rec *scoreRecord) error {
			if !rec.outsideWindow {
				w.add(rec)
			}
			return nil
		}
		if err := steady(add); err != nil {
			return nil, err
		}
		if rep.SteadyState, err = w.report(sc.t.set.method, rep.HorizonMS); err != nil {
			return nil, err
		}
	}
	sc.audits.finish(rep)
	return rep, nil
}
