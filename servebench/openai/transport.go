package openai

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// NewTransport returns the HTTP transport a Client uses when its
// HTTPClient is nil, tuned for load generation against one engine:
//   - HTTP/1.1 only, with keep-alive, and up to 4096 idle connections per
//     host, so that an open-loop burst does not close and redial
//     connections between requests;
//   - no transparent compression (gzip would buffer a stream and hide its
//     timing) and no proxy from the environment (the client talks to the
//     engine directly);
//   - a 30 s connect timeout; every other deadline is the Client's own;
//   - 4 KiB read and write buffers per connection, so that a thousand
//     open streams cost a few MB of buffers.
//
// Build on it when setting Client.HTTPClient (TLS settings) so that the
// tuning is kept; extra headers belong in Client.Header, whose values are
// then redacted. The Client replaces the HTTP client's CheckRedirect with
// its own policy (see Client.Redirects).
func NewTransport() *http.Transport {
	protocols := new(http.Protocols)
	protocols.SetHTTP1(true)
	return &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        0,
		MaxIdleConnsPerHost: 4096,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		DisableCompression:  true,
		ForceAttemptHTTP2:   false,
		Protocols:           protocols,
		// The buffers live as long as the connection: at 32 KiB each
		// they came to 64 MB per 1,000 connections. Reading keeps
		// net/http's 4 KiB, so that a burst of events is one system
		// call. Writing needs less: the headers and a short prompt's
		// body fit in 1 KiB, and a larger body is written past the
		// buffer in any case; 3 MB less per 1,000 connections.
		ReadBufferSize:        4 << 10,
		WriteBufferSize:       1 << 10,
		ExpectContinueTimeout: 0,
	}
}

// defaultHTTPClient is shared by every Client without an HTTPClient, so
// that they share one connection pool.
var defaultHTTPClient = sync.OnceValue(func() *http.Client {
	return &http.Client{Transport: NewTransport()}
})

// httpClient returns the client to send with.
func (c *Client) httpClient() *http.Client {
	if c.HTTPClient != nil {
		return c.HTTPClient
	}
	return defaultHTTPClient()
}
