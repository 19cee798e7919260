// Package livemetrics exposes servebench's own client-side figures in the
// Prometheus format while a run, a sweep or a contract runs, so that long
// runs and soaks can be watched in Grafana: requests offered, sent,
// completed and failed by class, the requests outstanding, schedule lag,
// TTFT, TPOT and E2E histograms, and the current load point.
//
// Metrics is a servebench.LoadObserver: set it as RunConfig.Observer (or
// combine it with others through servebench.Observers) and read it with
// Gather from a Ginkgo suite, or serve it with Serve (the CLI's
// --metrics-listen). Every metric name starts with "servebench_". Labels are
// bounded: the class (at most MaxClasses distinct values, the rest counted
// as "other"), the terminal status and the arrival process; never a
// request ID.
package livemetrics
