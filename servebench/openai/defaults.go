package openai

import "time"

// NewClient returns a Client for the engine at baseURL serving model, set
// as the servebench command sets one by default: the chat endpoint,
// streamed, with a 5 minute total deadline per request and a 1 minute limit
// on the silence between stream events (no first-token deadline), and
// length control LengthIgnoreEOS. Change any field before the first use.
//
// The zero Client differs: it sends non-streaming completions requests
// with no deadline at all, so a request to a hung engine never ends unless
// its context does. Prefer NewClient.
func NewClient(baseURL, model string) *Client {
	return &Client{
		BaseURL:       baseURL,
		Model:         model,
		Endpoint:      EndpointChat,
		Stream:        true,
		Redirects:     RedirectNone,
		TotalTimeout:  5 * time.Minute,
		IdleTimeout:   time.Minute,
		LengthControl: LengthIgnoreEOS,
	}
}
