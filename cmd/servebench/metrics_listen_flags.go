package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
)

// metricsListenFlags holds --metrics-listen: servebench's own client-side
// metrics served in the Prometheus format while the command runs.
type metricsListenFlags struct {
	addr   string
	server *livemetrics.Server
}

func (f *metricsListenFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "metrics-listen", "",
		"serve servebench's own live metrics (servebench_*) in the Prometheus format at ADDR/metrics while the command runs; a port alone binds 127.0.0.1")
}

// start serves the live metrics when the flag is given and adds them to
// cfg's observers; stop ends the server.
func (f *metricsListenFlags) start(cfg *servebench.RunConfig, stderr io.Writer) error {
	if f.addr == "" {
		return nil
	}
	m := livemetrics.New()
	if cfg.LoRA.Mix != nil {
		m = livemetrics.NewWithAdapters()
	}
	srv, err := livemetrics.Serve(f.addr, m)
	if err != nil {
		return fmt.Errorf("--metrics-listen: %w", err)
	}
	f.server = srv
	cfg.Observer = servebench.Observers(cfg.Observer, m)
	fmt.Fprintf(stderr, "live metrics: %s\n", srv.URL())
	return nil
}

// stop ends the metrics server, if one was started.
func (f *metricsListenFlags) stop() {
	if f.server != nil {
		_ = f.server.Close()
		f.server = nil
	}
}
