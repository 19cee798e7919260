package matchers

import (
	"errors"
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveMeanAcceptanceLengthAtLeast succeeds when the engine's speculative
// decoding yielded at least length tokens per verification step over the
// measurement: the report's speculative_decoding.mean_acceptance_length,
// 1 + accepted tokens / drafts (SGLang's CI bounds it as accept_length).
//
//	Expect(report).To(matchers.HaveMeanAcceptanceLengthAtLeast(2.5))
//
// A length below 1 or not finite, a report without speculative_decoding
// (no metrics URL, or an engine without speculative-decoding counters)
// and one whose engine made no draft are errors. On failure the message
// gives the counts.
func HaveMeanAcceptanceLengthAtLeast(length float64) types.GomegaMatcher {
	return acceptanceMatcher{target: length, length: true}
}

// HaveAcceptanceRateAtLeast succeeds when at least fraction of the draft
// tokens the engine proposed over the measurement were accepted: the
// report's speculative_decoding.acceptance_rate.
//
//	Expect(report).To(matchers.HaveAcceptanceRateAtLeast(0.6))
//
// A fraction outside [0, 1], a report without speculative_decoding and
// one with no draft token are errors.
func HaveAcceptanceRateAtLeast(fraction float64) types.GomegaMatcher {
	return acceptanceMatcher{target: fraction}
}

// acceptanceMatcher judges one figure of the speculative decoding: the
// mean acceptance length, or the acceptance rate.
type acceptanceMatcher struct {
	target float64
	length bool
}

// names are the matcher's and its figure's names.
func (m acceptanceMatcher) names() (who, figure string) {
	if m.length {
		return "HaveMeanAcceptanceLengthAtLeast", "mean acceptance length"
	}
	return "HaveAcceptanceRateAtLeast", "acceptance rate"
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m acceptanceMatcher) evaluate(actual any) (*report.SpeculativeDecoding, float64, error) {
	who, figure := m.names()
	switch {
	case m.length && (m.target < 1 || math.IsInf(m.target, 0) || math.IsNaN(m.target)):
		return nil, 0, fmt.Errorf("%s: a mean acceptance length counts the target model's own token, so it is at least 1; got %v", who, m.target)
	case !m.length:
		if err := fractionError(who, "an acceptance-rate target", m.target); err != nil {
			return nil, 0, err
		}
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, 0, err
	}
	sd := r.SpeculativeDecoding
	if sd == nil {
		return nil, 0, errors.New(who + ": the report has no speculative_decoding block (give the run the engine's metrics URL; the engine must expose vllm:spec_decode_num_drafts_total)")
	}
	v := sd.AcceptanceRate
	if m.length {
		v = sd.MeanAcceptanceLength
	}
	if v == nil {
		return nil, 0, fmt.Errorf("%s: no %s: the engine made %d drafts of %d tokens over the measurement", who, figure, sd.Drafts, sd.DraftTokens)
	}
	return sd, *v, nil
}

// Match reports whether the figure reaches the target.
func (m acceptanceMatcher) Match(actual any) (bool, error) {
	_, v, err := m.evaluate(actual)
	return err == nil && v >= m.target, err
}

// FailureMessage explains why the figure fell short.
func (m acceptanceMatcher) FailureMessage(actual any) string {
	return m.message(actual, "to be at least")
}

// NegatedFailureMessage explains why the figure reached the target.
func (m acceptanceMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

// message states the figure with its counts against the target.
func (m acceptanceMatcher) message(actual any, relation string) string {
	sd, v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	_, figure := m.names()
	return fmt.Sprintf("Expected %s %.3f (%d accepted of %d draft tokens in %d drafts) %s %.3f",
		figure, v, sd.AcceptedTokens, sd.DraftTokens, sd.Drafts, relation, m.target)
}

// String names the objective, for MeetSLOs and spec reports.
func (m acceptanceMatcher) String() string {
	_, figure := m.names()
	return fmt.Sprintf("%s >= %.3f", figure, m.target)
}
