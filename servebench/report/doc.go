// Package report is the report model of a scored run: the Report that
// scoring produces (offered and qualified counts, latency distributions,
// the SLO it was judged against, every audit) and the queries a contract
// asks of a report (any percentile, the load delivered, the requests
// without a record). Package report/render writes it for people, as the
// text summary and the self-contained HTML page.
//
// Entry points:
//
//	Report                          one scored run; RequestScore one request in it
//	Report.Percentile, Report.LoadDelivered  query it
//	ReadFile, Report.EachRequest    read report.json back, and its request entries from requests.jsonl
//	SLO                             the objectives a request is judged against (inclusive bounds)
//	Metrics, Reasons                the populations and the failure reasons, in report order
//	GPUTelemetry, EngineMetrics, DriftReport  the sections a run adds beside the latencies
//	Report.GomegaString             the one-paragraph summary in a Gomega failure message
//
// The package holds no scoring and no rendering: package score fills a
// Report from records, and everything here reads it.
package report
