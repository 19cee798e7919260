package capacity

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/internal/numfmt"
)

// The units of a Bracket.
const (
	UnitRPS   = "req/s"
	UnitUsers = "users"
	// UnitAgents is the unit of a user search over sessions: the most
	// concurrent agents whose session attainment meets the rule.
	UnitAgents = "agents"
)

// Bracket is a search's answer as a bracket with the confidence
// behind it (between 48 and 56 users, with 95 % confidence), not a
// point. Low is the highest passing tested point and High the lowest
// failing one (either nil
// when the search found none); Unit is UnitRPS or UnitUsers. In a rate
// search Low is the SLO capacity; in a user search it is the SLO
// concurrency.
type Bracket struct {
	Low  *float64 `json:"low"`
	High *float64 `json:"high"`
	// Confidence is the smaller of LowConfidence and HighConfidence (the
	// one that exists when only one end does): the one-sided confidence
	// with which the pooled attainment puts the rule's α between the ends.
	Confidence *float64 `json:"confidence"`
	Unit       string   `json:"unit"`
	// LowConfidence is the confidence that Low's attainment is at least α,
	// and HighConfidence that High's is below it, each from every run at
	// that point pooled: Φ((p̂ − α)/√(α(1 − α)/n)), the level at which the
	// one-sided Wilson bound just reaches α. They cover attainment only;
	// the rule's other criteria (load delivered, backlog) are verdicts.
	LowConfidence  *float64 `json:"low_confidence"`
	HighConfidence *float64 `json:"high_confidence"`
	// LowRuns and HighRuns count the runs pooled at each end, with their
	// qualified and offered requests.
	LowRuns       int `json:"low_runs"`
	LowQualified  int `json:"low_qualified"`
	LowOffered    int `json:"low_offered"`
	HighRuns      int `json:"high_runs"`
	HighQualified int `json:"high_qualified"`
	HighOffered   int `json:"high_offered"`
	// Separated is true when both ends reached the rule's confidence.
	Separated bool `json:"separated"`
	// AgentsPerGPU and AgentsPerKW state Low, in a search for agents, per
	// GPU sampled and per kilowatt the GPUs drew on average over the runs
	// at Low (the sum of each GPU's mean power); nil without GPU telemetry
	// on every one of those runs.
	AgentsPerGPU *float64 `json:"agents_per_gpu,omitempty"`
	AgentsPerKW  *float64 `json:"agents_per_kw,omitempty"`
}

// BracketOf states the bracket of a sweep's points under rule: a user
// search when any point has Users, an offered-rate sweep otherwise.
func BracketOf(points []Point, rule Rule) Bracket {
	rule = rule.withDefaults()
	b := Bracket{Unit: UnitRPS}
	var level func(Point, PointVerdict) float64
	var verdicts []PointVerdict
	if isUserSearch(points) {
		sel := SelectConcurrency(points, rule)
		b.Unit, verdicts = UnitUsers, sel.Verdicts
		if searchesAgents(points) {
			b.Unit = UnitAgents
		}
		b.Low, b.High = intToFloat(sel.Users), intToFloat(sel.FailingNeighborUsers)
		level = func(p Point, _ PointVerdict) float64 { return float64(p.Users) }
	} else {
		sel := Select(points, rule)
		verdicts = sel.Verdicts
		b.Low, b.High = sel.RPS, sel.FailingNeighborRPS
		level = func(_ Point, v PointVerdict) float64 { return v.OfferedRPS }
	}
	for i, p := range points {
		if p.Report == nil {
			continue
		}
		at := level(p, verdicts[i])
		q, n := judgedCounts(p)
		if b.Low != nil && at == *b.Low {
			b.LowRuns, b.LowQualified, b.LowOffered = b.LowRuns+1, b.LowQualified+q, b.LowOffered+n
		}
		if b.High != nil && at == *b.High {
			b.HighRuns, b.HighQualified, b.HighOffered = b.HighRuns+1, b.HighQualified+q, b.HighOffered+n
		}
	}
	if b.Unit == UnitAgents && b.Low != nil {
		b.AgentsPerGPU, b.AgentsPerKW = agentsPerGPUAndKW(points, *b.Low)
	}
	if b.Low != nil {
		b.LowConfidence = passConfidence(b.LowQualified, b.LowOffered, rule.MinAttainment)
	}
	if b.High != nil {
		if c := passConfidence(b.HighQualified, b.HighOffered, rule.MinAttainment); c != nil {
			b.HighConfidence = new(1 - *c)
		}
	}
	b.Confidence = minPtr(b.LowConfidence, b.HighConfidence)
	b.Separated = (b.Low == nil || reached(b.LowConfidence, rule.Confidence)) &&
		(b.High == nil || reached(b.HighConfidence, rule.Confidence)) && (b.Low != nil || b.High != nil)
	return b
}

// String is the sweep's answer line for people: what was searched for,
// its bracket, and the confidence in the bracket with the end that
// limits it, e.g. "SLO capacity between 16 and 48 req/s; confidence in
// the bracket 0.67% (limited by 48 req/s, not shown to fail)".
func (b Bracket) String() string {
	what := "SLO capacity"
	switch b.Unit {
	case UnitUsers:
		what = "SLO concurrency"
	case UnitAgents:
		what = "agent capacity"
	}
	switch {
	case b.Low != nil && b.High != nil:
		what += fmt.Sprintf(" between %s and %s %s", numfmt.Compact(*b.Low), numfmt.Compact(*b.High), b.Unit)
	case b.Low != nil:
		what += fmt.Sprintf(" at least %s %s (no tested point failed)", numfmt.Compact(*b.Low), b.Unit)
	case b.High != nil:
		what += fmt.Sprintf(" below %s %s (no tested point passed)", numfmt.Compact(*b.High), b.Unit)
	default:
		return "no bracket: nothing was tested"
	}
	if b.Confidence == nil {
		return what + "; confidence in the bracket n/a"
	}
	return fmt.Sprintf("%s; confidence in the bracket %s (%s)", what, numfmt.Confidence(*b.Confidence), b.limit())
}

// limit names the end whose confidence is the bracket's (the smaller
// one) and whether it reached the rule's confidence: "limited by 48
// req/s, not shown to fail". With one end only it is "from" that end.
func (b Bracket) limit() string {
	end, verb := b.Low, "pass"
	if b.HighConfidence != nil && (b.LowConfidence == nil || *b.HighConfidence <= *b.LowConfidence) {
		end, verb = b.High, "fail"
	}
	shown := "shown to " + verb
	if !b.Separated {
		shown = "not " + shown
	}
	how := "limited by"
	if b.Low == nil || b.High == nil {
		how = "from"
	}
	return fmt.Sprintf("%s %s %s, %s", how, numfmt.Compact(*end), b.Unit, shown)
}

// passConfidence is the one-sided confidence that the attainment behind
// qualified of offered is at least alpha: Φ((p̂ − α)/√(α(1 − α)/n)), the
// score statistic whose inversion is the Wilson bound. Nil when nothing
// was offered or α is 0 or 1.
func passConfidence(qualified, offered int, alpha float64) *float64 {
	if offered == 0 || !(alpha > 0 && alpha < 1) {
		return nil
	}
	n := float64(offered)
	z := (float64(qualified)/n - alpha) / math.Sqrt(alpha*(1-alpha)/n)
	return new(0.5 * math.Erfc(-z/math.Sqrt2))
}

// isUserSearch reports whether the points come from a user search.
func isUserSearch(points []Point) bool {
	for _, p := range points {
		if p.Users > 0 {
			return true
		}
	}
	return false
}

func intToFloat(v *int) *float64 {
	if v == nil {
		return nil
	}
	return new(float64(*v))
}

func minPtr(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return new(min(*a, *b))
}

func reached(c *float64, level float64) bool { return c != nil && *c >= level }

// OfUsers says whether the bracket is a user search's: in users, or in
// agents when the search judged sessions.
func (b Bracket) OfUsers() bool { return b.Unit == UnitUsers || b.Unit == UnitAgents }

// searchesAgents says whether a user search judges sessions: any of its
// points does.
func searchesAgents(points []Point) bool {
	for _, p := range points {
		if judgesSessions(p) {
			return true
		}
	}
	return false
}

// agentsPerGPUAndKW divides agents by the GPUs sampled and by the mean
// kilowatts they drew, averaged over the runs at that number of users;
// nil when a run there has no sampled telemetry or no mean power.
func agentsPerGPUAndKW(points []Point, agents float64) (perGPU, perKW *float64) {
	runs, gpus, kw := 0, 0.0, 0.0
	for _, p := range points {
		if float64(p.Users) != agents || p.Report == nil {
			continue
		}
		g := p.Report.GPUTelemetry
		if !g.Available() || len(g.GPUs) == 0 {
			return nil, nil
		}
		watts := 0.0
		for _, s := range g.GPUs {
			if s.PowerW.Mean == nil {
				return nil, nil
			}
			watts += *s.PowerW.Mean
		}
		runs, gpus, kw = runs+1, gpus+float64(len(g.GPUs)), kw+watts/1000
	}
	if runs == 0 {
		return nil, nil
	}
	perGPU = new(agents / (gpus / float64(runs)))
	if kw > 0 {
		perKW = new(agents / (kw / float64(runs)))
	}
	return perGPU, perKW
}
