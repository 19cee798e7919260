// Package report is the report model of a scored run and its renderings:
// the Report that scoring produces (offered and qualified counts, latency
// distributions, the SLO it was judged against, every audit), the text
// summary, the self-contained HTML page, and the queries a contract asks of
// a report (any percentile, the load delivered, the requests without a
// record).
//
// Entry points:
//
//	Report                          one scored run; RequestScore one request in it
//	Report.WriteText, WriteHTMLFile render it (text summary, report.html)
//	Report.Percentile, Report.LoadDelivered  query it
//	ReadFile, Report.EachRequest    read report.json back, and its request entries from requests.jsonl
//	SLO                             the objectives a request is judged against (inclusive bounds)
//	Metrics, Reasons                the populations and the failure reasons, in report order
//	GPUTelemetry, EngineMetrics, DriftReport  the sections a run adds beside the latencies
//
// The package holds no scoring: package score fills a Report from records,
// and everything here reads it.
package report
