package suites

import (
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
)

// serveLiveMetrics serves the load point's live metrics at the contract's
// metrics_listen address, when it has one, and returns the observer that
// feeds them (observer with the metrics added) and the function that
// stops the server with the run.
func (c *Contract) serveLiveMetrics(observer servebench.Observer) (servebench.Observer, func(), error) {
	if c.MetricsListen == "" {
		return observer, func() {}, nil
	}
	m := livemetrics.New()
	if c.LoRA.Mix != nil {
		m = livemetrics.NewWithAdapters()
	}
	srv, err := livemetrics.Serve(c.MetricsListen, m)
	if err != nil {
		return nil, nil, fmt.Errorf("contract %s: metrics_listen: %w", c.Name, err)
	}
	return servebench.Observers(observer, m), func() { _ = srv.Close() }, nil
}
