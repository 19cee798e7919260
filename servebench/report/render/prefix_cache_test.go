package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// TestPrefixCacheInTextAndHTML: one line in the text report, one row in
// the HTML report, both with the requests' and the engine's rate.
func TestPrefixCacheInTextAndHTML(t *testing.T) {
	r := &report.Report{Schema: report.ReportSchema, WindowMS: [2]float64{0, 1000}, HorizonMS: 1000,
		PrefixCache: &report.PrefixCache{RequestsReporting: 3, CachedTokens: 192, PromptTokens: 768, HitRate: new(0.25), EngineHitRate: new(0.3)}}
	want := "25.0% of prompt tokens (192 / 768, reported by 3 successful requests); engine counters 30.0%"
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), "Prefix cache hit rate:"); n != 1 || !strings.Contains(text.String(), want) {
		t.Fatalf("text report has %d prefix-cache lines, want one with %q:\n%s", n, want, text.String())
	}
	var html bytes.Buffer
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "Prefix cache hit rate") || !strings.Contains(html.String(), want) {
		t.Fatal("the HTML report has no prefix-cache row")
	}
	r.PrefixCache = &report.PrefixCache{EngineHitRate: new(0.5)}
	text.Reset()
	_ = Text(&text, r)
	if !strings.Contains(text.String(), "no request reported cached_tokens; engine counters 50.0%") {
		t.Fatalf("text report without reporting requests:\n%s", text.String())
	}
	r.PrefixCache = nil
	text.Reset()
	_ = Text(&text, r)
	if strings.Contains(text.String(), "Prefix cache") {
		t.Fatal("a prefix-cache line with nothing measured")
	}
}

// TestExpectedPrefixReuseInTextAndHTML: with 256 tokens declared reusable
// and 192 cached, both reports say "engine cached 192 of the 256 tokens the
// workload makes reusable (75.0%)"; without a declaration neither has the
// line.
func TestExpectedPrefixReuseInTextAndHTML(t *testing.T) {
	r := &report.Report{Schema: report.ReportSchema, WindowMS: [2]float64{0, 1000}, HorizonMS: 1000,
		PrefixCache: &report.PrefixCache{RequestsReporting: 3, CachedTokens: 192, PromptTokens: 768, HitRate: new(0.25),
			ExpectedCachedTokens: new(256), ExpectedHitRate: new(256.0 / 768), ReuseAchieved: new(0.75)}}
	want := "engine cached 192 of the 256 tokens the workload makes reusable (75.0%)"
	var text, html bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Expected prefix reuse:") || !strings.Contains(text.String(), want) {
		t.Fatalf("text report lacks %q:\n%s", want, text.String())
	}
	if !strings.Contains(html.String(), "Expected prefix reuse") || !strings.Contains(html.String(), want) {
		t.Fatal("the HTML report has no expected-reuse row")
	}
	r.PrefixCache.ExpectedCachedTokens, r.PrefixCache.ExpectedHitRate, r.PrefixCache.ReuseAchieved = nil, nil, nil
	text.Reset()
	html.Reset()
	_ = Text(&text, r)
	_ = HTML(&html, r)
	if strings.Contains(text.String(), "Expected prefix reuse") || strings.Contains(html.String(), "Expected prefix reuse") {
		t.Fatal("an expected-reuse line without a declaration")
	}
}
