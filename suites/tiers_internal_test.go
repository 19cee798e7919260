package suites

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// tierContract is a contract with three tiers of attainment bounds, 0.85,
// 0.95 and 0.99, lowest first; extra is appended (enforce:, unjudged:).
const tierContract = `name: tiers
base_url: http://127.0.0.1:1
model: m
workload:
  file: w.jsonl
arrival:
  process: constant
  rate: 20
count: 4
objectives:
  error_rate: 0.5
tiers:
  functional:
    attainment: 0.85
  complete:
    attainment: 0.95
    percentiles:
      - {metric: ttft, p: 99, below: 1s}
  target:
    attainment: 0.99
`

// parseTierContract parses tierContract with extra appended.
func parseTierContract(t *testing.T, extra string) (*Contract, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(`{"id":"a","prompt":"hi","max_tokens":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return Parse(filepath.Join(dir, "tiers.yaml"), []byte(tierContract+extra))
}

// ninetyOfHundred is a delivered run of 100 requests, 90 qualified
// (attainment 0.90), all 100 protocol successes, and 20 TTFTs of 10 ms.
func ninetyOfHundred() *report.Report {
	a := 0.9
	ttft := 10.0
	return &report.Report{Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100, Qualified: 90, Attainment: &a, Valid: true,
		Percentiles: map[record.Metric]report.Distribution{record.MetricTTFT: {Population: "successful requests", N: 20, P50: &ttft, P99: &ttft, Max: &ttft}}}
}

// verdictsAt judges every objective of c's first load point on r but the
// first, no lost requests (r holds no request entries).
func verdictsAt(c *Contract, r *report.Report) map[string]Verdict {
	p := c.Points()[0]
	out := map[string]Verdict{}
	for _, o := range c.PointObjectives(p)[1:] {
		out[o.Name] = c.judgeObjective(p, o, r, "")
	}
	return out
}

// A measured attainment of 0.90 lies between the functional tier's 0.85
// and the complete tier's 0.95. With enforce: complete the complete tier
// fails (exit 3) and the target tier (0.99) is informational; with
// enforce: functional the functional tier passes and both tiers above are
// informational, failing nothing. The complete tier's p99 over 20 TTFTs
// (0 beyond it; 500 needed) is unjudged either way.
func TestTiersEnforceUpToTheNamedTier(t *testing.T) {
	c, err := parseTierContract(t, "enforce: complete\n")
	if err != nil {
		t.Fatal(err)
	}
	if c.Enforce != "complete" || len(c.Tiers) != 3 || c.Tiers[1].Informational || !c.Tiers[2].Informational {
		t.Fatalf("tiers %+v, enforce %q", c.Tiers, c.Enforce)
	}
	got := verdictsAt(c, ninetyOfHundred())
	want := map[string]struct {
		outcome Outcome
		code    int
	}{
		"valid load":                                  {Passed, 0},
		"error rate <= 0.500":                         {Passed, 0},
		"functional: attainment >= 0.850":             {Passed, 0},
		"complete: attainment >= 0.950":               {Failed, 3},
		"complete: p99 TTFT <= 1000 ms":               {Unjudged, 0},
		"target (informational): attainment >= 0.990": {Informational, 0},
	}
	if len(got) != len(want) {
		t.Fatalf("verdicts %+v", got)
	}
	for name, w := range want {
		v, ok := got[name]
		if !ok || v.Outcome != w.outcome || v.ExitCode != w.code {
			t.Errorf("%s: %+v, want %s exit %d", name, v, w.outcome, w.code)
		}
	}
	if v := got["complete: attainment >= 0.950"]; v.Tier != "complete" || v.At.LineNumber != 16 {
		t.Errorf("complete verdict %+v", v)
	}
	if v := got["complete: p99 TTFT <= 1000 ms"]; !strings.Contains(v.Message, "needs at least 500 observations for 5 to lie beyond it, and its population has 20") {
		t.Errorf("unjudged message %q", v.Message)
	}

	c, err = parseTierContract(t, "enforce: functional\n")
	if err != nil {
		t.Fatal(err)
	}
	got = verdictsAt(c, ninetyOfHundred())
	if v := got["functional: attainment >= 0.850"]; v.Outcome != Passed {
		t.Errorf("functional: %+v", v)
	}
	if v := got["complete (informational): attainment >= 0.950"]; v.Outcome != Informational || v.ExitCode != 0 || !strings.Contains(v.Message, "attainment") {
		t.Errorf("complete: %+v", v)
	}

	// Without enforce every declared tier is enforced.
	c, err = parseTierContract(t, "")
	if err != nil {
		t.Fatal(err)
	}
	if v := verdictsAt(c, ninetyOfHundred())["target: attainment >= 0.990"]; c.Enforce != "target" || v.Outcome != Failed {
		t.Errorf("enforce %q, target %+v", c.Enforce, v)
	}
}

// unjudged: fail makes the unjudged p99 an enforced failure (exit 3),
// naming the reason; an informational tier's unjudged objective stays
// unjudged.
func TestUnjudgedFailMakesAnObjectiveWithoutItsDataAFailure(t *testing.T) {
	c, err := parseTierContract(t, "enforce: complete\nunjudged: fail\n")
	if err != nil {
		t.Fatal(err)
	}
	v := verdictsAt(c, ninetyOfHundred())["complete: p99 TTFT <= 1000 ms"]
	if v.Outcome != Failed || v.ExitCode != 3 || !strings.Contains(v.Message, "\nunjudged: p99 TTFT needs at least 500 observations") ||
		!strings.HasSuffix(v.Message, "(unjudged: fail makes an objective without its data a failure)") {
		t.Errorf("verdict %+v", v)
	}
}

// Bad tiers are refused naming the file, line and field.
func TestBadTiersAreRefusedWithTheirLine(t *testing.T) {
	for extra, want := range map[string]string{
		"enforce: gold\n":   "tiers.yaml:21:10: enforce: names no declared tier: got \"gold\", the tiers declared are functional, complete, target",
		"unjudged: maybe\n": "tiers.yaml:21:11: unjudged: want skip",
	} {
		_, err := parseTierContract(t, extra)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", extra, err, want)
		}
	}
	dir := t.TempDir()
	_ = os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(`{"id":"a","prompt":"hi","max_tokens":2}`+"\n"), 0o644)
	unknown := strings.Replace(tierContract, "  target:\n", "  gold:\n", 1)
	_, err := Parse(filepath.Join(dir, "tiers.yaml"), []byte(unknown))
	var fe *FieldError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "tiers.yaml:19:3: tiers.gold: unknown tier (the tiers are functional, complete, target, lowest first)") {
		t.Errorf("unknown tier: %v", err)
	}
	noTiers := strings.Split(tierContract, "tiers:\n")[0] + "enforce: complete\n"
	_, err = Parse(filepath.Join(dir, "tiers.yaml"), []byte(noTiers))
	if err == nil || !strings.Contains(err.Error(), "tiers.yaml:12:10: enforce: names tier \"complete\", but the contract declares no tiers:") {
		t.Errorf("enforce without tiers: %v", err)
	}
	embeddings := strings.Replace(tierContract, "model: m\n", "model: m\nendpoint: embeddings\n", 1)
	_, err = Parse(filepath.Join(dir, "tiers.yaml"), []byte(embeddings))
	if err == nil || !strings.Contains(err.Error(), "tiers.yaml:19:18: tiers.complete.percentiles[0].metric: metric ttft_ms is not defined by the embeddings endpoint") {
		t.Errorf("a tier's TTFT on embeddings: %v", err)
	}
	capInTier := strings.Replace(tierContract, "    attainment: 0.99\n", "    capacity: 3\n", 1)
	_, err = Parse(filepath.Join(dir, "tiers.yaml"), []byte(capInTier))
	if err == nil || !strings.Contains(err.Error(), "tiers.target.capacity: unknown field") {
		t.Errorf("capacity in a tier: %v", err)
	}
}
