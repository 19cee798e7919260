package openai

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Endpoint selects the OpenAI-compatible (or engine-specific) API a run
// talks to. Each one is a protocol with its own request body, its own
// parser and its own declared clocks (see API).
type Endpoint string

// The supported endpoints.
const (
	// EndpointCompletions is /v1/completions (a prompt string).
	EndpointCompletions Endpoint = "completions"
	// EndpointChat is /v1/chat/completions (a list of messages).
	EndpointChat Endpoint = "chat"
	// EndpointResponses is the OpenAI Responses API, /v1/responses, with
	// typed streaming events.
	EndpointResponses Endpoint = "responses"
	// EndpointEmbeddings is /v1/embeddings (one input or a batch).
	EndpointEmbeddings Endpoint = "embeddings"
	// EndpointRerank is /v1/rerank in the Jina/Cohere shape (query,
	// documents, top_n; answer results[] with relevance_score).
	EndpointRerank Endpoint = "rerank"
	// EndpointRerankTEI is /rerank in Text Embeddings Inference's shape
	// (query, texts; answer a bare list of {index, score}).
	EndpointRerankTEI Endpoint = "rerank-tei"
	// EndpointPairScore is vLLM's Score API, /v1/score (text_1 is the
	// query, text_2 the documents). It is not named "score" so that it
	// does not collide with the score command.
	EndpointPairScore Endpoint = "pair-score"
)

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
// checks read these declarations rather than the endpoint's name.
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
	Metrics []record.Metric
	// Throughput are the rates a report gives for the API.
	Throughput []ThroughputUnit
	// FailureReasons describe the failures the API's parser records, each
	// with the status it gets.
	FailureReasons []string
	// RowFields names the workload row fields the API reads (besides id,
	// class, extra and the schedule's fields).
	RowFields []string

	// terminalName names how a stream ends normally, for errors.
	terminalName string
}

// Defines reports whether the API defines metric m.
func (a *API) Defines(m record.Metric) bool { return slices.Contains(a.Metrics, m) }

// protocol is one API's implementation: the request body built from a
// workload row, the parser that turns the answer (an event stream or one
// JSON body) into the outcome record, and the API's declarations. Adding
// an API touches only its protocol and its declarations.
type protocol interface {
	// api returns the API's declarations.
	api() *API
	// checkRow says why a workload row cannot be sent to this API, naming
	// the field; nil when it can.
	checkRow(r *record.Request) error
	// body renders the request body and says whether the answer will be a
	// stream.
	body(c *Client, r *record.Request) (body payload, stream bool, err error)
	// event folds one stream event received at t into the exchange; true
	// ends the stream (the exchange's status or settled flag says how).
	event(x *exchange, resp *http.Response, t time.Time, typ, data []byte) bool
	// whole folds a whole JSON body received at t into the exchange.
	whole(x *exchange, t time.Time, data []byte)
	// settle decides the status of a request whose protocol ended
	// normally (x.settled) and that no parser has failed.
	settle(x *exchange)
}

// The metric sets of the two kinds of API.
var (
	textMetrics = []record.Metric{record.MetricTTFT, record.MetricTTFTFromScheduled, record.MetricTPOT, record.MetricITL, record.MetricChunkGap,
		record.MetricE2E, record.MetricLastToken, record.MetricScheduleLag, record.MetricClientQueue}
	poolingMetrics = []record.Metric{record.MetricE2E, record.MetricScheduleLag, record.MetricClientQueue}
)

// protocols lists every API in --help order.
var protocols = []protocol{
	completionsProtocol{}, chatProtocol{}, responsesProtocol{},
	embeddingsProtocol{}, rerankProtocol{shape: rerankJina}, rerankProtocol{shape: rerankTEI},
	rerankProtocol{shape: rerankPairScore},
}

// protocolFor returns the protocol of e; an empty Endpoint is chat, as the
// zero Client sends.
func protocolFor(e Endpoint) (protocol, bool) {
	if e == "" {
		e = EndpointChat
	}
	for _, p := range protocols {
		if p.api().Endpoint == e {
			return p, true
		}
	}
	return nil, false
}

// Endpoints lists every supported endpoint in help order. The slice is the
// caller's own.
func Endpoints() []Endpoint {
	out := make([]Endpoint, len(protocols))
	for i, p := range protocols {
		out[i] = p.api().Endpoint
	}
	return out
}

// EndpointList is the supported endpoints joined with ", ", for help texts
// and errors.
func EndpointList() string { return strings.Join(Endpoint("").Choices(), ", ") }

// Choices lists the endpoints' names, for a flag's help.
func (Endpoint) Choices() []string {
	names := make([]string, len(protocols))
	for i, p := range protocols {
		names[i] = string(p.api().Endpoint)
	}
	return names
}

// ParseEndpoint returns the endpoint named s, or an error that lists the
// supported ones.
func ParseEndpoint(s string) (Endpoint, error) {
	if _, ok := protocolFor(Endpoint(s)); ok && s != "" {
		return Endpoint(s), nil
	}
	return "", fmt.Errorf("unknown endpoint %q: want one of %s", s, EndpointList())
}

// APIOf returns the declarations of endpoint e (completions for "").
func APIOf(e Endpoint) (API, bool) {
	p, ok := protocolFor(e)
	if !ok {
		return API{}, false
	}
	return *p.api(), true
}

// CheckRow says why row r cannot be sent to endpoint e, naming the field;
// nil when it can.
func (e Endpoint) CheckRow(r *record.Request) error {
	p, ok := protocolFor(e)
	if !ok {
		return fmt.Errorf("unknown endpoint %q: want one of %s", e, EndpointList())
	}
	if err := checkMedia(p, r); err != nil {
		return err
	}
	return p.checkRow(r)
}

// checkMedia refuses a row with image or audio parts for an endpoint that
// takes none: only chat takes both, and Responses takes images.
func checkMedia(p protocol, r *record.Request) error {
	if !record.HasMedia(r) {
		return nil
	}
	e := p.api().Endpoint
	switch m := record.MediaOf(r); {
	case e == EndpointChat:
		return nil
	case e == EndpointResponses && m.Audio == 0:
		return nil
	case e == EndpointResponses:
		return fmt.Errorf("messages: row %q sends input_audio, and the responses endpoint takes no audio (use %s)", r.ID, EndpointChat)
	}
	return fmt.Errorf("messages: row %q sends images or audio, and the %s endpoint takes none (use %s or %s)", r.ID, e, EndpointChat, EndpointResponses)
}

// CheckWorkload checks every row of w against endpoint e, before any
// load: the first row that does not fit is an error naming the workload,
// its line and the field.
func (e Endpoint) CheckWorkload(w *schedule.Workload) error {
	p, ok := protocolFor(e)
	if !ok {
		return fmt.Errorf("unknown endpoint %q: want one of %s", e, EndpointList())
	}
	for i := range w.Requests {
		r := &w.Requests[i]
		if err := checkMedia(p, r); err != nil {
			return fmt.Errorf("%s:%d: %w", w.Name, r.Line, err)
		}
		if err := p.checkRow(r); err != nil {
			return fmt.Errorf("%s:%d: %w", w.Name, r.Line, err)
		}
	}
	return nil
}
