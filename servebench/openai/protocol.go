package openai

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// protocol is one API's implementation: the request body built from a
// workload row, the parser that turns the answer (an event stream or one
// JSON body) into the outcome record. Its declarations (path, metrics,
// throughput, failures) are in record's catalog (record.APIOf); adding an
// API touches only its protocol and its declarations.
type protocol interface {
	// endpoint is the endpoint the protocol serves; record.APIOf gives
	// its declarations.
	endpoint() record.Endpoint
	// terminal names how the protocol's stream ends normally, for errors.
	terminal() string
	// checkRow says why a workload row cannot be sent to this API, naming
	// the field; nil when it can.
	checkRow(r *record.Request) error
	// carries reports whether row r holds this API's inputs at all (a
	// text row's prompt or messages, an embeddings row's input, a rerank
	// row's query or documents), valid or not.
	carries(r *record.Request) bool
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

// protocols holds every API's implementation, one for each endpoint of
// record's catalog.
var protocols = map[record.Endpoint]protocol{
	record.EndpointCompletions: completionsProtocol{},
	record.EndpointChat:        chatProtocol{},
	record.EndpointResponses:   responsesProtocol{},
	record.EndpointMessages:    messagesProtocol{},
	record.EndpointEmbeddings:  embeddingsProtocol{},
	record.EndpointRerank:      rerankProtocol{shape: rerankJina},
	record.EndpointRerankTEI:   rerankProtocol{shape: rerankTEI},
	record.EndpointPairScore:   rerankProtocol{shape: rerankPairScore},
}

// protocolFor returns the protocol of e; an empty Endpoint is chat, as the
// zero Client sends.
func protocolFor(e record.Endpoint) (protocol, bool) {
	if e == "" {
		e = record.EndpointChat
	}
	p, ok := protocols[e]
	return p, ok
}

// CheckRow says why row r cannot be sent to endpoint e, naming the field;
// nil when it can.
func CheckRow(e record.Endpoint, r *record.Request) error {
	p, ok := protocolFor(e)
	if !ok {
		return fmt.Errorf("unknown endpoint %q: want one of %s", e, record.EndpointList())
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
	e := p.endpoint()
	switch m := record.MediaOf(r); {
	case e == record.EndpointChat:
		return nil
	case e == record.EndpointResponses && m.Audio == 0:
		return nil
	case e == record.EndpointResponses:
		return fmt.Errorf("messages: row %q sends input_audio, and the responses endpoint takes no audio (use %s)", r.ID, record.EndpointChat)
	}
	return fmt.Errorf("messages: row %q sends images or audio, and the %s endpoint takes none (use %s or %s)", r.ID, e, record.EndpointChat, record.EndpointResponses)
}

// CheckWorkload checks every row of w against endpoint e, before any
// load: a workload none of whose rows carries the endpoint's inputs (a
// text workload for embeddings) is an error naming the command that
// generates one; otherwise the first row that does not fit is an error
// naming the workload, its line and the field.
func CheckWorkload(e record.Endpoint, w *schedule.Workload) error {
	p, ok := protocolFor(e)
	if !ok {
		return fmt.Errorf("unknown endpoint %q: want one of %s", e, record.EndpointList())
	}
	if !slices.ContainsFunc(w.Requests, func(r record.Request) bool { return p.carries(&r) }) {
		api, _ := record.APIOf(p.endpoint())
		return fmt.Errorf("%s: this workload has no inputs for the %s endpoint: generate one with %q", w.Name, api.Endpoint, api.Generate)
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
