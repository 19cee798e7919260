package record

import (
	"fmt"
	"strings"
)

// Endpoint selects the OpenAI-compatible (or engine-specific) API a run
// talks to. Each one is a protocol with its own request body, its own
// parser and its own declared clocks (see API and APIOf).
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
	// EndpointMessages is the Anthropic Messages API, /v1/messages, with
	// typed streaming events.
	EndpointMessages Endpoint = "messages"
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

// Endpoints lists every supported endpoint in help order. The slice is the
// caller's own.
func Endpoints() []Endpoint {
	out := make([]Endpoint, len(apis))
	for i := range apis {
		out[i] = apis[i].Endpoint
	}
	return out
}

// EndpointList is the supported endpoints joined with ", ", for help texts
// and errors.
func EndpointList() string { return strings.Join(Endpoint("").Choices(), ", ") }

// Choices lists the endpoints' names, for a flag's help.
func (Endpoint) Choices() []string {
	names := make([]string, len(apis))
	for i := range apis {
		names[i] = string(apis[i].Endpoint)
	}
	return names
}

// ParseEndpoint returns the endpoint named s, or an error that lists the
// supported ones.
func ParseEndpoint(s string) (Endpoint, error) {
	if _, ok := APIOf(Endpoint(s)); ok && s != "" {
		return Endpoint(s), nil
	}
	return "", fmt.Errorf("unknown endpoint %q: want one of %s", s, EndpointList())
}
