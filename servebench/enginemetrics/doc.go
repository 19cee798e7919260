// Package enginemetrics reads an engine's Prometheus endpoint around and
// through a run: two scrapes that bracket the measurement (counter and
// histogram deltas), a time series of the engine's queue, running
// requests, KV-cache usage and preemptions, and the per-backend figures
// behind a gateway (prefix-cache hit rate).
//
// Entry points:
//
//	ScrapeOnce, Between           scrape before and after, and compare into a report.EngineMetrics
//	StartSampler, Sampler.StopIfStarted  sample the series during the run (report.EngineSeries)
//	ScrapeEach, Backends          the same for every backend's URL (report.BackendMetrics)
//
// The prefix-cache hit rate over the measurement, for the engine and for
// each backend, is read from the compared counters by
// report.EngineMetrics.PrefixCacheHitRate (vLLM's and SGLang's names).
//
// A scrape that fails is recorded, with every credential in its URL
// redacted, and the run goes on.
package enginemetrics
