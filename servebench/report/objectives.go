package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/servebench/servebench/internal/safefile"
)

// ObjectiveOutcome is an objective's verdict on a run.
type ObjectiveOutcome string

// The verdicts of an objective. Unjudged is neither a pass nor a failure:
// the data to judge the objective is absent (a percentile with fewer than
// 5 observations beyond it, an engine metric the engine does not expose,
// no sessions, a single tenant). Informational is an objective of a tier
// above the enforced one that does not hold: reported, failing nothing.
const (
	ObjectivePass          ObjectiveOutcome = "pass"
	ObjectiveFail          ObjectiveOutcome = "fail"
	ObjectiveUnjudged      ObjectiveOutcome = "unjudged"
	ObjectiveInformational ObjectiveOutcome = "informational"
)

// ObjectiveVerdict is one objective's or threshold's verdict on the run,
// as report.json's objectives list holds it.
type ObjectiveVerdict struct {
	// Name is the objective as declared: a threshold's expression
	// ("ttft_p99<=500ms") or a contract objective's spec name ("p99 TTFT
	// <= 500 ms", "complete: attainment >= 0.950").
	Name string `json:"name"`
	// Source says what declared it: "threshold" for `--threshold`, else
	// the contract field ("objectives.percentiles[0]",
	// "tiers.complete.attainment").
	Source string `json:"source"`
	// Tier names the contract tier that declares it; empty otherwise.
	Tier string `json:"tier,omitempty"`
	// Measured is the value judged, in Unit; nil when nothing was
	// measured (unjudged) or the objective bounds no single number (valid
	// load, no lost requests, drift, startup).
	Measured *float64 `json:"measured"`
	// Bound is the objective's bound in Unit; nil when it bounds no single
	// number.
	Bound *float64 `json:"bound"`
	// Unit is the unit of Measured and Bound: "ms", "fraction", "req/s",
	// "index", "tokens", "J/token", "J/request" or "violations"; empty
	// with no bound.
	Unit string `json:"unit,omitempty"`
	// Verdict is pass, fail, unjudged or informational.
	Verdict ObjectiveOutcome `json:"verdict"`
	// Reason says, for a failure, why the objective does not hold; for
	// an unjudged objective, which data is missing; for a pass, what was
	// measured, when the judge says so.
	Reason string `json:"reason,omitempty"`
}

// objectivesKey is the objectives list's key in report.json.
const objectivesKey = "objectives"

// WriteObjectives sets the objectives list of the report.json at path to
// vs, keeping every other field as it was written, in its order; the
// list comes last, where Report's own encoding puts it. The file is
// replaced whole, never left half-written.
func WriteObjectives(path string, vs []ObjectiveVerdict) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("%s: not a report: want a JSON object", path)
	}
	var compact bytes.Buffer
	compact.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("%s: malformed report: %w", path, err)
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return fmt.Errorf("%s: malformed report: %w", path, err)
		}
		key, _ := tok.(string)
		if key == objectivesKey {
			continue
		}
		if err := writeMember(&compact, key, value); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if len(vs) > 0 {
		list, err := json.Marshal(vs)
		if err != nil {
			return err
		}
		if err := writeMember(&compact, objectivesKey, list); err != nil {
			return err
		}
	}
	compact.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	return safefile.WriteWhole(path, out.Bytes())
}

// writeMember appends "key":value to the compact object in buf.
func writeMember(buf *bytes.Buffer, key string, value json.RawMessage) error {
	if buf.Len() > 1 {
		buf.WriteByte(',')
	}
	k, err := json.Marshal(key)
	if err != nil {
		return err
	}
	buf.Write(k)
	buf.WriteByte(':')
	return json.Compact(buf, value)
}
