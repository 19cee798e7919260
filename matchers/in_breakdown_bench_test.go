package matchers_test

import (
	"testing"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// BenchmarkInBreakdownMatch judges adapter sql of a report that holds
// 100,000 request entries, half of them sql: each Match selects the
// value's entries.
func BenchmarkInBreakdownMatch(b *testing.B) {
	r := adapterMix()
	entries := make([]report.RequestScore, 100_000)
	for i := range entries {
		entries[i] = r.Requests[i%len(r.Requests)]
		if i%2 == 1 {
			entries[i].Adapter = "base"
		}
	}
	r.Requests = entries
	m := matchers.InBreakdown("adapter", "sql", matchers.HaveAttainmentAtLeast(0.9))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Match(r); err != nil {
			b.Fatal(err)
		}
	}
}
