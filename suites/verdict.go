package suites

import (
	"github.com/onsi/ginkgo/v2/types"
	gomegatypes "github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
)

// Outcome is what became of one objective or comparison of a contract.
type Outcome string

const (
	// Passed: the objective holds.
	Passed Outcome = "pass"
	// Failed: the objective does not hold, or its load did not run.
	Failed Outcome = "fail"
	// Skipped: the objective was not judged (its engine cannot run here).
	Skipped Outcome = "skip"
	// Unjudged: the data to judge the objective is absent (a percentile
	// with too few observations beyond it, an engine metric the engine
	// does not expose): neither a pass nor a failure, reported as a
	// skipped spec with the reason; a failure under `unjudged: fail`.
	Unjudged Outcome = "unjudged"
	// Informational: an objective of a tier above the enforced one that
	// does not hold; it is reported and fails nothing.
	Informational Outcome = "informational"
)

// Verdict is the judgment of one spec of a contract, as the Ginkgo suite
// and `servebench check` both report it: an objective at a load point, a
// comparison with the baseline, or a capacity.
type Verdict struct {
	// Contract and LoadPoint name where it was judged; LoadPoint is empty
	// for a judgment over every load point (a capacity).
	Contract  string `json:"contract"`
	LoadPoint string `json:"load_point,omitempty"`
	// Name is the spec's name: the objective's description.
	Name string `json:"name"`
	// At is the contract line that declared it.
	At      types.CodeLocation `json:"-"`
	Outcome Outcome            `json:"outcome"`
	// Tier names the tier that declares the objective (`tiers.NAME`);
	// empty for `objectives:` and comparisons.
	Tier string `json:"tier,omitempty"`
	// Measured is the judged value, as the matcher states it; empty when
	// the matcher states none or nothing was measured.
	Measured string `json:"measured,omitempty"`
	// Value, Bound and Unit are the judged value and the objective's
	// bound as numbers in Unit, for an objective that bounds one number
	// (matchers.Quantified); Value is nil when nothing was measured.
	Value *float64 `json:"value,omitempty"`
	Bound *float64 `json:"bound,omitempty"`
	Unit  string   `json:"unit,omitempty"`
	// Message is a failure's or skip's message; for a failure its first
	// line is "file:line: name", as in the suite's failure messages.
	Message string `json:"message,omitempty"`
	// ExitCode is the exit code the failure stands for: 1 the load did
	// not run (bad input, a failed preflight), 2 the load was not
	// delivered, 3 an objective failed on delivered load, 5 a regression,
	// 6 an inconclusive or advisory comparison; 0 when it passed or was
	// skipped.
	ExitCode int `json:"exit_code"`
}

// Heading is a failure message's first line: "file:line: name".
func (v Verdict) Heading() string { return failureHeading(v.At, v.Name) }

// judge judges actual with an objective's matcher, as gomega's Expect(actual).To(m,
// heading) would: the failure message is the heading, a newline, then the
// matcher's message (or its error).
//
// A matcher that finds actual without the data to judge it
// (matchers.Unjudgeable) gives Unjudged, its message the reason.
func judge(v Verdict, m gomegatypes.GomegaMatcher, actual any, heading string) Verdict {
	if q, can := m.(matchers.Quantified); can {
		if bound, unit := q.Bound(); unit != "" {
			v.Bound, v.Unit = &bound, unit
		}
	}
	if u, can := m.(matchers.Unjudgeable); can {
		if reason, unjudged := u.Unjudged(actual); unjudged {
			v.Outcome, v.Message = Unjudged, reason
			return v
		}
	}
	ok, err := m.Match(actual)
	if q, can := m.(matchers.Quantified); can && v.Unit != "" {
		if value, verr := q.Value(actual); verr == nil {
			v.Value = &value
		}
	}
	if ms, isMeasurer := m.(matchers.Measurer); isMeasurer {
		if s, merr := ms.Measured(actual); merr == nil {
			v.Measured = s
		}
	}
	switch {
	case err != nil:
		v.Outcome, v.Message, v.ExitCode = Failed, heading+"\n"+err.Error(), 3
	case !ok:
		v.Outcome, v.Message, v.ExitCode = Failed, heading+"\n"+m.FailureMessage(actual), 3
	default:
		v.Outcome = Passed
	}
	return v
}

// failed is a failure of v with the message heading and detail.
func failed(v Verdict, code int, heading, detail string) Verdict {
	v.Outcome, v.ExitCode, v.Message = Failed, code, heading
	if detail != "" {
		v.Message += "\n" + detail
	}
	return v
}

// skipped is v not judged, for reason.
func skipped(v Verdict, reason string) Verdict {
	v.Outcome, v.Message = Skipped, reason
	return v
}
