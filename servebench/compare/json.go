package compare

import (
	"encoding/json"
	"fmt"
	"math"
)

// JSON is the comparison's indented JSON form, ending in a newline.
func (c *Comparison) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return append(b, '\n'), nil
}

// MarshalJSON writes the comparison with every figure that is not a finite
// number (an unbounded side's +Inf, the undefined interval of
// insufficient_data) as null, which JSON can hold.
func (m MetricComparison) MarshalJSON() ([]byte, error) {
	type plain MetricComparison
	return json.Marshal(struct {
		plain
		Baseline            *float64 `json:"baseline"`
		Candidate           *float64 `json:"candidate"`
		Change              *float64 `json:"change"`
		CILow               *float64 `json:"ci_low"`
		CIHigh              *float64 `json:"ci_high"`
		MinDetectableEffect *float64 `json:"min_detectable_effect"`
	}{plain(m), finiteOrNil(m.Baseline), finiteOrNil(m.Candidate), finiteOrNil(m.Change),
		finiteOrNil(m.CILow), finiteOrNil(m.CIHigh), finiteOrNil(m.MinDetectableEffect)})
}

// UnmarshalJSON reads what MarshalJSON writes; a null figure reads as NaN
// (see Unbounded for which side was unbounded).
func (m *MetricComparison) UnmarshalJSON(b []byte) error {
	type plain MetricComparison
	var v struct {
		plain
		Baseline            *float64 `json:"baseline"`
		Candidate           *float64 `json:"candidate"`
		Change              *float64 `json:"change"`
		CILow               *float64 `json:"ci_low"`
		CIHigh              *float64 `json:"ci_high"`
		MinDetectableEffect *float64 `json:"min_detectable_effect"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*m = MetricComparison(v.plain)
	m.Baseline, m.Candidate, m.Change = orNaN(v.Baseline), orNaN(v.Candidate), orNaN(v.Change)
	m.CILow, m.CIHigh, m.MinDetectableEffect = orNaN(v.CILow), orNaN(v.CIHigh), orNaN(v.MinDetectableEffect)
	return nil
}

// finiteOrNil points at v when it is a finite number.
func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// orNaN is *p, or NaN for nil.
func orNaN(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
