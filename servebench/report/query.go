package report

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/stats"
)

// StoredPercentiles are the percentiles a report always keeps in its JSON
// form (100 is the maximum). A report read back from JSON, or scored in a
// streamed pass, answers these and the further ones its scoring was asked
// for (Distribution.Extra).
func StoredPercentiles() []float64 { return []float64{50, 90, 95, 99, 100} }

// PercentileKey names the p-th percentile in Distribution.Extra: "p99.9".
func PercentileKey(p float64) string { return "p" + strconv.FormatFloat(p, 'f', -1, 64) }

// Percentile returns the p-th percentile of a metric's population with the
// population's size and name. A report fresh from the in-memory scorer
// answers any p in [0, 100] from its raw samples, by its PercentileMethod.
// A report scored in a streamed pass (every run's), or read back from
// JSON, keeps only the stored summaries, so it answers p = 0 (the
// minimum), 50, 90, 95, 99 and 100 (the maximum) and the percentiles its
// scoring was asked for (score.Options.Percentiles), and errors for any
// other p. An unknown
// metric or an empty population is an error too: an undefined percentile
// is never reported as zero.
func (r *Report) Percentile(m record.Metric, p float64) (value float64, n int, population string, err error) {
	if r == nil {
		return 0, 0, "", fmt.Errorf("percentile of %s: no report", m)
	}
	d, ok := r.Percentiles[m]
	if !ok {
		return 0, 0, "", fmt.Errorf("percentile of %s: the report has no such metric", m)
	}
	if !(p >= 0 && p <= 100) {
		return 0, d.N, d.Population, fmt.Errorf("percentile of %s: p = %v is outside [0, 100]", m, p)
	}
	if d.N == 0 {
		return 0, 0, d.Population, fmt.Errorf("percentile of %s: the population is empty (%s)", m, d.Population)
	}
	if xs, ok := r.Samples[m]; ok && len(xs) == d.N {
		v, _ := stats.Percentile(xs, p, r.PercentileMethod)
		return v, d.N, d.Population, nil
	}
	var stored *float64
	switch p {
	case 50:
		stored = d.P50
	case 90:
		stored = d.P90
	case 95:
		stored = d.P95
	case 99:
		stored = d.P99
	case 100:
		stored = d.Max
	case 0:
		stored = d.Min
	default:
		if v, ok := d.Extra[PercentileKey(p)]; ok {
			return v, d.N, d.Population, nil
		}
		return 0, d.N, d.Population, fmt.Errorf("percentile of %s: p%v was not asked of the scoring (score.Options.Percentiles), and without the raw samples a report keeps only min, p50, p90, p95, p99, max and those asked for", m, p)
	}
	if stored == nil {
		return 0, d.N, d.Population, fmt.Errorf("percentile of %s: p%v is not recorded", m, p)
	}
	return *stored, d.N, d.Population, nil
}

// RequestsWithoutRecord lists the offered requests that had no outcome
// record at all when the report was scored (an interrupted run): the
// scorer counted them as not_sent. It works on a report read back from
// JSON as well.
func (r *Report) RequestsWithoutRecord() ([]string, error) {
	var ids []string
	err := r.EachRequest(func(rs *RequestScore) error {
		if rs.HadNoRecord() {
			ids = append(ids, rs.ID)
		}
		return nil
	})
	return ids, err
}

// HadNoRecord reports whether the request had no outcome record at all
// when it was scored (an interrupted run): the scorer counted it as
// not_sent.
func (rs *RequestScore) HadNoRecord() bool {
	return rs.Status == record.StatusNotSent && rs.Error == NoOutcomeRecordError
}

// NoOutcomeRecordError is the error of a scheduled request that has no
// outcome record at all; Report.RequestsWithoutRecord looks for it.
const NoOutcomeRecordError = "no outcome record: the request never reached a terminal record (interrupted run?)"

// ErrLoadNotDelivered says that the accounting is complete but the run is
// not evidence for its offered load: a request was never sent, or was sent
// later than the lag tolerance. Report.LoadDelivered wraps it.
var ErrLoadNotDelivered = errors.New("the load was not delivered")

// LoadDelivered returns nil when every offered request was sent within the
// lag tolerance, and otherwise an error wrapping ErrLoadNotDelivered that
// lists the report's invalid reasons. The CLI maps it to exit code 2.
func (r *Report) LoadDelivered() error {
	if r.Valid {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrLoadNotDelivered, strings.Join(r.InvalidReasons, "; "))
}

// ErrorRate is the share of offered requests that did not end in protocol
// success: errors = offered - protocol successes (HTTP and stream errors,
// timeouts, rejections, cancellations, unsent requests and empty outputs),
// over offered. Latency and quality do not enter it. ok is false when
// nothing was offered.
func (r *Report) ErrorRate() (rate float64, errors int, ok bool) {
	if r == nil || r.Offered == 0 {
		return 0, 0, false
	}
	errors = r.Offered - r.ProtocolSuccesses
	return float64(errors) / float64(r.Offered), errors, true
}
