package score

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// resolveAPI finds the declarations of endpoint e and refuses an SLO
// objective on a metric the API does not define.
func (set *scoreSetup) resolveAPI(e record.Endpoint) error {
	if e == "" {
		return nil
	}
	api, ok := record.APIOf(e)
	if !ok {
		return fmt.Errorf("score options: unknown endpoint %q: want one of %s", e, record.EndpointList())
	}
	set.api = &api
	return CheckObjectives(e, set.slo)
}

// CheckObjectives refuses an objective on a metric that endpoint e does
// not define, such as a TTFT bound on embeddings, naming the objective.
func CheckObjectives(e record.Endpoint, slo report.SLO) error {
	api, ok := record.APIOf(e)
	if !ok {
		return fmt.Errorf("unknown endpoint %q: want one of %s", e, record.EndpointList())
	}
	for _, o := range []struct {
		name   string
		bound  time.Duration
		metric record.Metric
	}{{"ttft", slo.TTFT, record.MetricTTFT}, {"tpot", slo.TPOT, record.MetricTPOT}, {"e2e", slo.E2E, record.MetricE2E}} {
		if o.bound > 0 && !api.Defines(o.metric) {
			return &UndefinedObjectiveError{Objective: o.name, Endpoint: e}
		}
	}
	return nil
}

// UndefinedObjectiveError is an objective on a metric the endpoint does
// not define.
type UndefinedObjectiveError struct {
	// Objective is "ttft", "tpot" or "e2e".
	Objective string
	// Endpoint is the API that does not define it.
	Endpoint record.Endpoint
}

func (e *UndefinedObjectiveError) Error() string {
	return fmt.Sprintf("a %s objective cannot be judged on the %s endpoint: it has no first token, so it defines %s only",
		e.Objective, e.Endpoint, definedNames(e.Endpoint))
}

// definedNames lists the latency metrics of e that an objective can bound.
func definedNames(e record.Endpoint) string {
	api, _ := record.APIOf(e)
	out := ""
	for _, m := range []record.Metric{record.MetricTTFT, record.MetricTPOT, record.MetricE2E} {
		if api.Defines(m) {
			if out != "" {
				out += ", "
			}
			out += string(m)
		}
	}
	return out
}

// defines reports whether the setup's API defines metric m.
func (set *scoreSetup) defines(m record.Metric) bool { return set.api == nil || set.api.Defines(m) }

// throughputTally counts what the API's rates count, over successful
// requests.
type throughputTally struct {
	items, itemsReported   int
	input, inputReported   int
	output, outputReported int
}

// add counts one successful record.
func (t *throughputTally) add(rec *scoreRecord) {
	if rec.items != nil {
		t.items += *rec.items
		t.itemsReported++
	}
	if rec.inputTokens != nil {
		t.input += *rec.inputTokens
		t.inputReported++
	}
	if rec.outputTokens != nil {
		t.output += *rec.outputTokens
		t.outputReported++
	}
}

// rates gives the API's declared rates over horizonMS; nil without an
// API.
func (t *throughputTally) rates(api *record.API, successes int, horizonMS float64) []report.ThroughputRate {
	if api == nil || !(horizonMS > 0) {
		return nil
	}
	out := make([]report.ThroughputRate, 0, len(api.Throughput))
	for _, u := range api.Throughput {
		r := report.ThroughputRate{Unit: u}
		switch u {
		case record.ThroughputRequests:
			r.Count, r.Reported = successes, successes
		case record.ThroughputItems, record.ThroughputDocuments:
			r.Count, r.Reported = t.items, t.itemsReported
		case record.ThroughputInputTokens:
			r.Count, r.Reported = t.input, t.inputReported
		case record.ThroughputOutputTokens:
			r.Count, r.Reported = t.output, t.outputReported
		}
		r.PerSecond = float64(r.Count) / (horizonMS / 1000)
		out = append(out, r)
	}
	return out
}
