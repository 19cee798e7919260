package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// embeddingsProtocol is /v1/embeddings: one JSON body per request, one
// vector per input.
type embeddingsProtocol struct{ pooling }

func (embeddingsProtocol) endpoint() record.Endpoint { return record.EndpointEmbeddings }

// checkRow: an embeddings row carries input.
func (embeddingsProtocol) checkRow(r *record.Request) error {
	if r.Input == nil {
		if f := record.PoolingField(r); f != "" {
			return fmt.Errorf("%s: a rerank field; an embeddings row carries input", f)
		}
		return errors.New("input: required (a string or an array of strings)")
	}
	return nil
}

// carries: an embeddings row's input is its input.
func (embeddingsProtocol) carries(r *record.Request) bool { return r.Input != nil }

// body writes model, input (as the row gave it) and encoding_format
// "float", then the row's Extra. The answer is never a stream.
func (embeddingsProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	b := newBodyWriter(128+textsSize(r.Input.Texts), r.Extra)
	if err := b.put("model", c.modelFor(r)); err != nil {
		return payload{}, false, err
	}
	if err := b.put("input", r.Input); err != nil {
		return payload{}, false, err
	}
	b.literal("encoding_format", `"float"`)
	body, err := b.finish()
	return body, false, err
}

// wireEmbeddings is an embeddings answer: the vectors' lengths, not their
// values.
type wireEmbeddings struct {
	Data []struct {
		Index     *int     `json:"index"`
		Embedding arrayLen `json:"embedding"`
	} `json:"data"`
	Usage *wirePoolingUsage `json:"usage"`
	Error json.RawMessage   `json:"error"`
}

// wirePoolingUsage is the usage of the APIs without output tokens.
type wirePoolingUsage struct {
	PromptTokens optInt `json:"prompt_tokens"`
	TotalTokens  optInt `json:"total_tokens"`
}

// inputTokens is prompt_tokens, else total_tokens (these APIs have no
// output tokens, so the total is the input); nil when neither is given.
func (u *wirePoolingUsage) inputTokens() *int {
	if u == nil {
		return nil
	}
	if u.PromptTokens.ok {
		return new(u.PromptTokens.v)
	}
	return u.TotalTokens.ptrOrNil()
}

// embeddingDims remembers the dimension of the first vector each Client
// received, so that every later answer is checked against it.
var embeddingDims sync.Map // *Client → *atomic.Int64

// firstDimension returns the dimension c saw first, recording dim when
// it is the first.
func firstDimension(c *Client, dim int) int {
	v, _ := embeddingDims.LoadOrStore(c, new(atomic.Int64))
	seen := v.(*atomic.Int64)
	seen.CompareAndSwap(0, int64(dim))
	return int(seen.Load())
}

// whole checks an embeddings answer: one vector per input, every index
// once, and the same non-zero dimension as every earlier vector.
func (embeddingsProtocol) whole(x *exchange, t time.Time, data []byte) {
	var w wireEmbeddings
	if !decodePooling(x, t, data, &w, &w.Error) {
		return
	}
	n := len(x.req.Input.Texts)
	x.out.Items = new(n)
	x.out.PromptTokens = w.Usage.inputTokens()
	if len(w.Data) != n {
		x.end(record.StatusInvalidResponse, t, fmt.Sprintf("invalid response: %d vectors for %d inputs", len(w.Data), n))
		return
	}
	seen := make([]bool, n)
	for i := range w.Data {
		d := &w.Data[i]
		idx := i
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= n || seen[idx] {
			x.end(record.StatusInvalidResponse, t, fmt.Sprintf("invalid response: data[%d].index %d does not name one of the %d inputs once", i, idx, n))
			return
		}
		seen[idx] = true
		dim := d.Embedding.n
		if !d.Embedding.set || dim == 0 {
			x.end(record.StatusInvalidResponse, t, fmt.Sprintf("invalid response: data[%d].embedding is empty or not an array", i))
			return
		}
		if want := firstDimension(x.c, dim); dim != want {
			x.end(record.StatusInvalidResponse, t, fmt.Sprintf("invalid response: data[%d].embedding has dimension %d, earlier vectors %d", i, dim, want))
			return
		}
	}
	x.settled = true
	x.out.TerminalMS = x.ms(t)
}

// pooling is what the APIs without a first token share: they never
// stream, and a well-formed answer is a success.
type pooling struct{}

// event is never called for a pooling API (it asks for no stream); a
// stream it gets anyway is a protocol violation.
func (pooling) event(x *exchange, resp *http.Response, t time.Time, _, _ []byte) bool {
	x.streamError(resp, t, "protocol violation: an event stream from an API that answers with one JSON body")
	return true
}

// terminal: a pooling API never streams; a stream it sends anyway ends
// at its terminal event, whatever that is.
func (pooling) terminal() string { return "its terminal event" }

// settle: a well-formed answer is a success.
func (pooling) settle(x *exchange) { x.out.Status = record.StatusSuccess }

// decodePooling decodes a pooling API's body into v and ends the request
// on an unreadable body or an error member; it reports whether the body
// is an answer to check.
func decodePooling(x *exchange, t time.Time, data []byte, v any, errField *json.RawMessage) bool {
	if len(data) > 0 && data[0] == '{' || len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, v); err != nil {
			x.end(record.StatusStreamError, t, fmt.Sprintf("response body is not a readable %s answer: %v: %s", x.proto.endpoint(), err, quoteData(string(data))))
			return false
		}
	} else {
		x.end(record.StatusStreamError, t, fmt.Sprintf("response body is not a JSON %s answer: %s", x.proto.endpoint(), quoteData(string(data))))
		return false
	}
	if errField != nil && isJSONValue(*errField) {
		x.end(record.StatusStreamError, t, "error in a 2xx response: "+messageOf(*errField))
		return false
	}
	return true
}

// textsSize is the bytes of texts, to size a body's buffer.
func textsSize(texts []string) int {
	n := 0
	for _, s := range texts {
		n += len(s) + 4
	}
	return n
}
