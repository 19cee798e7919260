package matchers_test

import (
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func ExampleHavePrefixReuseAchievedAtLeast() {
	// The three requests of scored() reported 180 cached of 600 prompt
	// tokens; their rows declared 240 reusable: 180/240 = 0.75 achieved.
	r := scored()
	r.PrefixCache = &report.PrefixCache{RequestsReporting: 3, CachedTokens: 180, PromptTokens: 600, HitRate: ptr(0.3),
		ExpectedCachedTokens: new(240), ExpectedHitRate: ptr(0.4), ReuseAchieved: ptr(0.75)}
	g := printFailures()
	g.Expect(r).To(matchers.HavePrefixReuseAchievedAtLeast(0.7)) // passes
	g.Expect(r).To(matchers.HavePrefixReuseAchievedAtLeast(0.9))
	// Output:
	// Expected prefix reuse achieved 0.750 to be at least 0.900
	// the engine cached 180 of the 240 prompt tokens the workload makes reusable, over 3 requests reporting cached_tokens
}
