package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
)

// backendFlags hold what attributes requests to the replicas behind a
// gateway.
type backendFlags struct {
	header  string
	metrics urlList
}

// urlList is a flag that takes URLs, repeated or comma-separated.
type urlList []string

func (u *urlList) String() string { return strings.Join(*u, ",") }

// Set adds the comma-separated URLs of one occurrence.
func (u *urlList) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*u = append(*u, v)
		}
	}
	return nil
}

func (f *backendFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.header, "backend-header", "",
		"record this response header per request as the backend that served it (one your gateway is set up to return); report.json breaks the run down by it")
	fs.Var(&f.metrics, "backend-metrics",
		"the replicas' Prometheus endpoints (repeat the flag or separate with commas), scraped before, after and every --metrics-interval through the measurement")
}

// apply sets the client's header and the run's replica endpoints.
func (f *backendFlags) apply(s *servebench.Settings) error {
	if f.header != "" {
		if err := openai.ValidateHeader(f.header, ""); err != nil {
			return fmt.Errorf("--backend-header: %w", err)
		}
		s.Client.BackendHeader = f.header
	}
	for _, u := range f.metrics {
		if err := openai.ValidateBaseURL(u); err != nil {
			return fmt.Errorf("--backend-metrics: %w", err)
		}
	}
	s.EngineMetrics.BackendURLs = f.metrics
	return nil
}
