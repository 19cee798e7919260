package record

import "slices"

// ThroughputUnit names a rate a report gives for an API, over the cohort's
// horizon and counted on successful requests.
type ThroughputUnit string

// The throughput units.
const (
	// ThroughputRequests is successful requests per second.
	ThroughputRequests ThroughputUnit = "requests/s"
	// ThroughputOutputTokens is output tokens per second.
	ThroughputOutputTokens ThroughputUnit = "output_tokens/s"
	// ThroughputInputTokens is input (prompt) tokens per second, from the
	// server's usage.
	ThroughputInputTokens ThroughputUnit = "input_tokens/s"
	// ThroughputItems is embedded inputs (or ranked documents) per second.
	ThroughputItems ThroughputUnit = "items/s"
	// ThroughputDocuments is ranked documents per second.
	ThroughputDocuments ThroughputUnit = "documents/s"
)

// API is what one endpoint's protocol declares: where it is served, which
// clocks and metrics it defines, which rates a report gives for it, and
// which failures it can record. The scorer, the reports and the objective
// checks read these declarations rather than the endpoint's name; the
// protocol client implements them.
type API struct {
	// Endpoint is the value of --endpoint and of a contract's endpoint:.
	Endpoint Endpoint
	// Path is the route, relative to the server's root.
	Path string
	// Description says what the API is, for --help.
	Description string
	// Streams is true when the API answers with an event stream (unless
	// the client asks for a whole body).
	Streams bool
	// FirstToken is true when the API has a first token: f, l, TTFT, TPOT
	// and ITL are defined. An API without one defines E2E only, and its
	// records carry Items.
	FirstToken bool
	// Metrics are the latency metrics a report gives for the API.
	Metrics []Metric
	// Throughput are the rates a report gives for the API.
	Throughput []ThroughputUnit
	// FailureReasons describe the failures the API's parser records, each
	// with the status it gets.
	FailureReasons []string
	// RowFields names the workload row fields the API reads (besides id,
	// class, extra and the schedule's fields).
	RowFields []string
	// Generate is a `servebench workload generate` command line that
	// writes rows the API takes, named by the error for a workload that
	// has none.
	Generate string
}

// Defines reports whether the API defines metric m.
func (a *API) Defines(m Metric) bool { return slices.Contains(a.Metrics, m) }

// APIOf returns the declarations of endpoint e (chat for "", as the zero
// client sends).
func APIOf(e Endpoint) (API, bool) {
	if e == "" {
		e = EndpointChat
	}
	for i := range apis {
		if apis[i].Endpoint == e {
			return apis[i], true
		}
	}
	return API{}, false
}
