package livemetrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Path is where Serve answers scrapes.
const Path = "/metrics"

// Server serves a Metrics' series over HTTP until Close.
type Server struct {
	srv  *http.Server
	ln   net.Listener
	done chan error
}

// LoopbackAddr completes a listen address: a port alone (":9464" or
// "9464") binds the loopback interface, so that the series are not served
// to the network unless a host is named.
func LoopbackAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		if host, port, err = net.SplitHostPort(":" + addr); err != nil {
			return "", fmt.Errorf("want host:port or a port, got %q", addr)
		}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Serve listens on addr (see LoopbackAddr) and serves m's series at Path.
// The listener is bound when Serve returns, so Addr can be scraped at
// once.
func Serve(addr string, m *Metrics) (*Server, error) {
	full, err := LoopbackAddr(addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", full)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle(Path, promhttp.HandlerFor(m.Registry(), promhttp.HandlerOpts{}))
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}, ln: ln, done: make(chan error, 1)}
	go func() { s.done <- s.srv.Serve(ln) }()
	return s, nil
}

// Addr is the address the server listens on (with the port chosen when
// addr's port was 0).
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is the scrape URL.
func (s *Server) URL() string { return "http://" + s.Addr() + Path }

// Close stops the server, letting scrapes in progress finish for up to a
// second.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}
