package matchers_test

import (
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func ExampleHaveMeanAcceptanceLengthAtLeast() {
	// The engine verified 10 drafts of 4 tokens and accepted 25 of the 40:
	// 1 + 25/10 = 3.5 tokens per step.
	r := scored()
	r.SpeculativeDecoding = &report.SpeculativeDecoding{Drafts: 10, DraftTokens: 40, AcceptedTokens: 25, AcceptanceRate: ptr(0.625), MeanAcceptanceLength: ptr(3.5)}
	g := printFailures()
	g.Expect(r).To(matchers.HaveMeanAcceptanceLengthAtLeast(2.5)) // passes
	g.Expect(r).To(matchers.HaveMeanAcceptanceLengthAtLeast(4))
	// Output:
	// Expected mean acceptance length 3.500 (25 accepted of 40 draft tokens in 10 drafts) to be at least 4.000
}
