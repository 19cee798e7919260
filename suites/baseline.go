package suites

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
)

// BaselineSpec declares the engine a contract's engine is compared with:
// another image tag, binary or URL. With a baseline, every load point runs
// Rounds rounds of one baseline and one candidate run in the balanced ABBA
// order (round K with the arrival seed plus K − 1 on both sides), and each
// tolerance becomes one spec.
type BaselineSpec struct {
	// Engine is the baseline engine to start; nil when BaseURL is set.
	Engine *EngineSpec
	// BaseURL and Model name a running baseline server instead.
	BaseURL, Model string
	// Rounds is the number of rounds per load point, or ab.RoundsAuto (0,
	// `rounds: auto`, the default) to run rounds until every deciding
	// statistic is decided. One round gives an advisory result, which
	// fails its specs.
	Rounds int
	// MaxRounds bounds rounds: auto (max_rounds:, default
	// ab.DefaultMaxRounds, at least ab.FirstLookRounds).
	MaxRounds int
	// MaxDuration, when above 0, bounds rounds: auto's wall time
	// (max_duration:).
	MaxDuration time.Duration
	// Decide names the deciding statistics (decide:); nil means
	// compare's default.
	Decide []string
	// Inconclusive is what an inconclusive comparison does to its spec:
	// "fail" (the default) or "pass".
	Inconclusive string
	// ReuseEngines keeps one engine per side for every round. By default,
	// when servebench starts both engines (engine, not base_url, on both
	// sides, and no SharedEngine), every run starts its own fresh engine,
	// so that no round inherits another's warm caches.
	ReuseEngines bool
	// Confidence is the comparison's family-wise confidence (default 0.95).
	Confidence float64
	// Tolerances are the compared statistics in file order; empty means
	// compare.DefaultTolerances.
	Tolerances []compare.Tolerance
}

// baseline reads the baseline section.
func (d *decoder) baseline(m *mapping, c *Contract) {
	n := m.get("baseline")
	if n == nil {
		return
	}
	b := d.mapping(n, "baseline", "engine", "base_url", "model", "rounds", "max_rounds", "max_duration", "decide", "confidence", "tolerances", "inconclusive", "reuse_engines")
	if b == nil {
		return
	}
	spec := &BaselineSpec{Rounds: ab.RoundsAuto, MaxRounds: ab.DefaultMaxRounds, Confidence: 0.95, Inconclusive: InconclusiveFail}
	switch {
	case b.has("engine") && b.has("base_url"):
		d.errorf(b.get("base_url"), "baseline.base_url", "give either engine or base_url, not both")
	case b.has("engine"):
		spec.Engine = d.engine(b.get("engine"))
	case b.has("base_url"):
		spec.BaseURL = d.str(b, "base_url")
		if spec.BaseURL != "" && !strings.HasPrefix(spec.BaseURL, "http://") && !strings.HasPrefix(spec.BaseURL, "https://") {
			d.errorf(b.get("base_url"), "baseline.base_url", "want an http:// or https:// URL, got %q", spec.BaseURL)
		}
		if d.required(b, "model") {
			spec.Model = d.printable(b, "model")
		}
	default:
		d.errorf(b.node, "baseline.engine", "required: give the baseline engine to start or the base_url of a running baseline server")
	}
	d.baselineRounds(b, spec)
	if f := d.fraction(b, "confidence"); f != nil {
		if *f <= 0 || *f >= 1 {
			d.errorf(b.get("confidence"), "baseline.confidence", "want a value in (0, 1), got %v", *f)
		}
		spec.Confidence = *f
	}
	if b.has("inconclusive") {
		switch spec.Inconclusive = d.str(b, "inconclusive"); spec.Inconclusive {
		case InconclusiveFail, InconclusivePass:
		default:
			d.errorf(b.get("inconclusive"), "baseline.inconclusive", "want %s or %s, got %q", InconclusiveFail, InconclusivePass, spec.Inconclusive)
		}
	}
	spec.ReuseEngines = d.boolean(b, "reuse_engines", false)
	spec.Tolerances = d.tolerances(b)
	d.baselineDecide(b, spec)
	c.Baseline = spec
}

// baselineRounds reads rounds (auto or a number), max_rounds and
// max_duration.
func (d *decoder) baselineRounds(b *mapping, spec *BaselineSpec) {
	if n := b.get("rounds"); n != nil && resolve(n).Kind == yaml.ScalarNode && resolve(n).Value == "auto" {
		spec.Rounds = ab.RoundsAuto
	} else if n != nil {
		spec.Rounds = d.integer(b, "rounds", 1)
	}
	if b.has("max_rounds") {
		spec.MaxRounds = d.integer(b, "max_rounds", 1)
		if spec.Rounds == ab.RoundsAuto && spec.MaxRounds < ab.FirstLookRounds {
			d.errorf(b.get("max_rounds"), "baseline.max_rounds", "want at least %d with rounds: auto (its first look is after %d rounds), got %d", ab.FirstLookRounds, ab.FirstLookRounds, spec.MaxRounds)
		}
	}
	if b.has("max_duration") {
		spec.MaxDuration = d.duration(b, "max_duration")
	}
}

// baselineDecide reads decide: a list of compared statistics.
func (d *decoder) baselineDecide(b *mapping, spec *BaselineSpec) {
	if !b.has("decide") {
		return
	}
	names := d.strings(b, "decide")
	if len(names) == 0 {
		d.errorf(b.get("decide"), "baseline.decide", "empty: name at least one compared statistic, or leave the field out for the defaults")
		return
	}
	if _, err := compare.ParseDecide(strings.Join(names, ",")); err != nil {
		d.errorf(b.get("decide"), "baseline.decide", "%v", err)
		return
	}
	if err := compare.CheckOptions(compare.Options{Tolerances: spec.Tolerances, Decide: names}, ""); err != nil {
		d.errorf(b.get("decide"), "baseline.decide", "%v", err)
		return
	}
	spec.Decide = names
}

// The values of baseline.inconclusive.
const (
	// InconclusiveFail fails an inconclusive comparison's spec (the
	// default), as servebench compare exits 6.
	InconclusiveFail = "fail"
	// InconclusivePass lets it pass, as --allow-inconclusive does.
	InconclusivePass = "pass"
)

// tolerances reads baseline.tolerances: a mapping from statistic name to a
// fraction or a percentage, each recorded at its line.
func (d *decoder) tolerances(b *mapping) []compare.Tolerance {
	n := b.get("tolerances")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "baseline.tolerances", "want a mapping of statistic: tolerance, e.g. ttft_p99: 5%%, got %s", describe(n))
		return nil
	}
	var out []compare.Tolerance
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		field := "baseline.tolerances." + k.Value
		switch {
		case v.Kind != yaml.ScalarNode:
			d.errorf(v, field, "want a fraction or a percentage, got %s", describe(v))
			continue
		case seen[k.Value]:
			d.errorf(k, field, "field given twice")
			continue
		}
		seen[k.Value] = true
		t, err := compare.ParseTolerance(k.Value + "=" + v.Value)
		if err != nil {
			d.errorf(k, field, "%v", err)
			continue
		}
		d.line(field, k.Line)
		out = append(out, t)
	}
	if len(n.Content) == 0 {
		d.errorf(n, "baseline.tolerances", "empty: name at least one statistic, or leave the field out for the defaults")
	}
	return out
}

// baselineTolerances are the compared statistics: the declared ones, else
// the defaults.
func (b *BaselineSpec) baselineTolerances() []compare.Tolerance {
	if len(b.Tolerances) > 0 {
		return b.Tolerances
	}
	return compare.DefaultTolerances()
}

// ComparisonName is the spec name of one comparison, e.g. "p99 TTFT no
// more than 5 % worse than baseline", or for one breakdown value
// (ttft_p99[adapter=sql]) "adapter sql: p99 TTFT no more than 5 % worse
// than baseline".
func ComparisonName(t compare.Tolerance) string {
	name, sel, ok := strings.Cut(t.Name, "[")
	if dimension, value, _ := strings.Cut(strings.TrimSuffix(sel, "]"), "="); ok {
		return dimension + " " + value + ": " + ComparisonName(compare.Tolerance{Name: name, Value: t.Value})
	}
	pct := fmt.Sprintf("%g %%", 100*t.Value)
	switch t.Name {
	case "attainment":
		return fmt.Sprintf("attainment no more than %g points below baseline", 100*t.Value)
	case "error_rate":
		return fmt.Sprintf("error rate no more than %g points above baseline", 100*t.Value)
	case "qualified_rps":
		return "qualified request rate no more than " + pct + " below baseline"
	}
	metric, p, _ := strings.Cut(t.Name, "_p")
	return fmt.Sprintf("p%s %s no more than %s worse than baseline", p, metricLabel(metric), pct)
}

// metricLabel names a latency metric in spec names.
func metricLabel(m string) string {
	labels := map[string]string{"ttft": "TTFT", "tpot": "TPOT", "e2e": "E2E", "itl": "ITL", "last_token": "last-token latency",
		"ttft_from_scheduled": "TTFT from scheduled", "schedule_lag": "schedule lag", "chunk_gap": "chunk gap",
		"max_gap": "max gap", "client_queue": "client queue"}
	if l, ok := labels[m]; ok {
		return l
	}
	return m
}
