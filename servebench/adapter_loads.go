package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/report"
)

// LoadAdapters loads cfg.LoadAdapters into the engine through
// cfg.Client, one after another in the order given, and returns each
// load's time for the report (RunConfig.AdapterLoads). The first load
// that fails stops it: the error names the adapter, the route, the HTTP
// status and the engine's message, and the loads before it are returned
// with it. Nothing of the run is sent or written.
func LoadAdapters(ctx context.Context, cfg RunConfig) ([]report.AdapterLoad, error) {
	if len(cfg.LoadAdapters) == 0 {
		return nil, nil
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	loads := make([]report.AdapterLoad, 0, len(cfg.LoadAdapters))
	for _, a := range cfg.LoadAdapters {
		res, err := cfg.Client.LoadAdapter(ctx, a, cfg.AdapterLoadTimeout)
		if err != nil {
			return loads, err
		}
		loads = append(loads, report.AdapterLoad{Adapter: a.Name, Path: a.Path, Route: res.Route,
			LoadMS: float64(res.Elapsed.Microseconds()) / 1000, Status: res.Status})
	}
	return loads, nil
}
