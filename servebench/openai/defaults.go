package openai

import (
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// The deadlines that a Client's zero TotalTimeout and IdleTimeout stand
// for, NewClient's and the command's defaults. The first-token deadline has
// none: zero FirstTokenTimeout is no first-token deadline.
const (
	DefaultTotalTimeout = 5 * time.Minute
	DefaultIdleTimeout  = time.Minute
)

// NoDeadline, set as FirstTokenTimeout, IdleTimeout or TotalTimeout,
// disables that deadline, where zero would stand for its default.
const NoDeadline time.Duration = -1

// NoDeadlineIfZero returns d, or NoDeadline when d is zero: for a setting
// in which zero says "no deadline", as the command's timeout flags and a
// contract's timeouts do.
func NoDeadlineIfZero(d time.Duration) time.Duration {
	if d == 0 {
		return NoDeadline
	}
	return d
}

// NewClient returns a Client for the engine at baseURL serving model, set
// as the servebench command sets one by default: the chat endpoint,
// streamed, with a DefaultTotalTimeout deadline per request and a
// DefaultIdleTimeout limit on the silence between stream events (no
// first-token deadline), length control LengthIgnoreEOS, and the tenant
// and objective headers record.DefaultTenantHeader and
// record.DefaultObjectiveHeader. The zero
// Client with the same BaseURL and Model behaves the same; NewClient
// spells the defaults out. Change any field before the first use.
func NewClient(baseURL, model string) *Client {
	return &Client{
		BaseURL:       baseURL,
		Model:         model,
		Endpoint:      record.EndpointChat,
		Redirects:     RedirectNone,
		TotalTimeout:  DefaultTotalTimeout,
		IdleTimeout:   DefaultIdleTimeout,
		LengthControl: LengthIgnoreEOS,

		TenantHeader:    record.DefaultTenantHeader,
		ObjectiveHeader: record.DefaultObjectiveHeader,
	}
}

// ResolvedEndpoint is the endpoint the Client sends to: Endpoint, or
// record.EndpointChat when it is empty.
func (c *Client) ResolvedEndpoint() record.Endpoint {
	if c.Endpoint == "" {
		return record.EndpointChat
	}
	return c.Endpoint
}

// Deadlines returns the deadlines each request is sent with, zero where
// there is none: a field's value, its default when zero, none when
// negative (NoDeadline).
func (c *Client) Deadlines() (firstToken, idle, total time.Duration) {
	return deadline(c.FirstTokenTimeout, 0), deadline(c.IdleTimeout, DefaultIdleTimeout), deadline(c.TotalTimeout, DefaultTotalTimeout)
}

// deadline resolves one deadline field: zero is def, negative is none (0).
func deadline(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
