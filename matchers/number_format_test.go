package matchers_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report/render"
)

// The text report, the HTML report and a matcher message write the same
// numbers the same way: percentages as "91.8%", an undefined value as
// "n/a".
func TestTextHTMLAndMatcherMessagesFormatNumbersAlike(t *testing.T) {
	r := cohort(190, 200)
	r.WilsonConfidence = 0.95
	r.WilsonLower = f(0.9181081670817905) // 190 of 200 at 95%, by hand in stats' tests
	r.MaxScheduleLagMS = nil              // undefined

	var text, html bytes.Buffer
	if err := render.Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := render.HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	message := matchers.HaveWilsonLowerBoundAbove(0.95).FailureMessage(r)

	spacedPercent := regexp.MustCompile(`[0-9] %`)
	for name, out := range map[string]string{"text": text.String(), "html": html.String(), "message": message} {
		for _, want := range []string{"91.8%", "95.0%"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
		if m := spacedPercent.FindString(out); m != "" {
			t.Errorf("%s writes a percentage with a space: %q", name, m)
		}
	}
	for name, out := range map[string]string{"text": text.String(), "html": html.String()} {
		if !strings.Contains(out, "n/a") {
			t.Errorf("%s does not write the undefined maximum schedule lag as n/a", name)
		}
	}
}
