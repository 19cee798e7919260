package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"syscall"

	"github.com/servebench/servebench/servebench/stats"
)

// lagTolerance is servebench's default schedule-lag tolerance (ms): a run
// with a request sent later than this after its time is not valid load.
const lagTolerance = 20.0

// phaseResult is what one client measured in one phase of a paired run,
// as the child process that ran it prints it (one JSON line).
type phaseResult struct {
	Client    string `json:"client"`
	Scheduled int    `json:"scheduled"`
	Succeeded int    `json:"succeeded"`
	// Joined counts the successes whose server first-token time was found.
	Joined int `json:"joined"`
	// TTFT error: client TTFT minus the server's own first-token time.
	TTFTErrorP50MS float64 `json:"ttft_error_p50_ms"`
	TTFTErrorP99MS float64 `json:"ttft_error_p99_ms"`
	LagP50MS       float64 `json:"lag_p50_ms"`
	LagP99MS       float64 `json:"lag_p99_ms"`
	LagMaxMS       float64 `json:"lag_max_ms"`
	// Valid: every request sent, none later than lagTolerance.
	Valid bool `json:"valid"`
	// CPUPerRequestMS is the process's user+system CPU over the sending
	// phase per scheduled request; CPUWithScoringPerRequestMS adds what
	// servebench does after the last request ended (scoring, reports).
	CPUPerRequestMS            float64 `json:"cpu_per_request_ms"`
	CPUWithScoringPerRequestMS float64 `json:"cpu_with_scoring_per_request_ms,omitempty"`
	PeakRSSMB                  float64 `json:"peak_rss_mb"`
	// PeakRSSSendingMB is servebench's peak resident set when the last
	// request ended, before scoring and reports (0 for the lean client).
	PeakRSSSendingMB float64  `json:"peak_rss_sending_mb,omitempty"`
	PeakInFlight     int      `json:"peak_in_flight"`
	Notes            []string `json:"notes,omitempty"`
}

// requestTiming is one request's clocks (ms from the run's start) as a
// client recorded them; ok when it succeeded.
type requestTiming struct {
	id                           string
	scheduled, sent, first       float64
	hasSent, hasFirst, succeeded bool
}

// fill computes the timing figures of r from the requests' clocks and the
// server's first-token times by request id.
func (r *phaseResult) fill(reqs []requestTiming, server map[string]float64) {
	r.Scheduled = len(reqs)
	var errs, lags []float64
	sentAll := true
	for _, q := range reqs {
		if !q.hasSent {
			sentAll = false
			continue
		}
		lags = append(lags, q.sent-q.scheduled)
		if !q.succeeded {
			continue
		}
		r.Succeeded++
		st, ok := server[q.id]
		if !ok || !q.hasFirst {
			continue
		}
		r.Joined++
		errs = append(errs, (q.first-q.sent)-st)
	}
	slices.Sort(errs)
	slices.Sort(lags)
	r.TTFTErrorP50MS, r.TTFTErrorP99MS = nearestRank(errs, 50), nearestRank(errs, 99)
	r.LagP50MS, r.LagP99MS = nearestRank(lags, 50), nearestRank(lags, 99)
	r.LagMaxMS = nearestRank(lags, 100)
	r.Valid = sentAll && len(lags) > 0 && r.LagMaxMS <= lagTolerance
}

// nearestRank is the p-th percentile of sorted by nearest rank
// (rank = ⌈p/100·N⌉); NaN for an empty population.
func nearestRank(sorted []float64, p float64) float64 {
	v, ok := stats.Percentile(sorted, p, stats.NearestRank)
	if !ok {
		return math.NaN()
	}
	return v
}

// cpuMS is the user plus system CPU time of a resource usage, in ms.
func cpuMS(ru *syscall.Rusage) float64 {
	return tvMS(ru.Utime) + tvMS(ru.Stime)
}

// peakRSSMB is the process's peak resident set in MB (10⁶ bytes); Linux
// reports Maxrss in KiB.
func peakRSSMB() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Maxrss) * 1024 / 1e6
}

// takeServerTTFT fetches, and makes the server forget, its first-token
// times of the request ids that start with prefix.
func takeServerTTFT(base, prefix string) (map[string]float64, error) {
	resp, err := http.Get(base + "/stats?prefix=" + url.QueryEscape(prefix))
	if err != nil {
		return nil, fmt.Errorf("server first-token times: %w", err)
	}
	defer resp.Body.Close()
	var m map[string]float64
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return nil, fmt.Errorf("server first-token times: %w", err)
	}
	return m, nil
}
