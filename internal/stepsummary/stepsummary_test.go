package stepsummary

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPathsNamesTheFlagThenTheEnvironmentOnce(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvVar {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		flag, env string
		want      []string
	}{
		{"", "", nil},
		{"a.md", "", []string{"a.md"}},
		{"", "gh.md", []string{"gh.md"}},
		{"a.md", "gh.md", []string{"a.md", "gh.md"}},
		{"a.md", "a.md", []string{"a.md"}},
	} {
		got := Paths(tc.flag, env(tc.env))
		if len(got) != len(tc.want) {
			t.Fatalf("Paths(%q) with %s=%q = %q, want %q", tc.flag, EnvVar, tc.env, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("Paths(%q) with %s=%q = %q, want %q", tc.flag, EnvVar, tc.env, got, tc.want)
			}
		}
	}
}

func TestAppendKeepsWhatTheFileHeld(t *testing.T) {
	p := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(p, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Append([]string{p}, "verdict\n"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "earlier step\nverdict\n" {
		t.Fatalf("file holds %q", b)
	}
	err = Append([]string{filepath.Join(p, "not-a-dir", "x.md")}, "v")
	if err == nil || err.Error() != "step summary "+filepath.Join(p, "not-a-dir", "x.md")+": open "+filepath.Join(p, "not-a-dir", "x.md")+": not a directory" {
		t.Fatalf("Append under a file: %v", err)
	}
}

func TestObjectivesTableEscapesCells(t *testing.T) {
	got := Objectives([]ObjectiveRow{
		{Objective: "p99 TTFT", Where: "c.yaml:14", Measured: "212.3 ms (n = 40)", Bound: "<= 500 ms", Verdict: "pass"},
		{Objective: "a|b", Where: "c.yaml:15", Measured: "", Bound: "", Verdict: "fail"},
	})
	want := "| objective | where | measured | bound | verdict |\n" +
		"| --- | --- | --- | --- | --- |\n" +
		"| p99 TTFT | c.yaml:14 | 212.3 ms (n = 40) | <= 500 ms | pass |\n" +
		"| a\\|b | c.yaml:15 | – | – | **fail** |\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDetailsFencesTheBodyLongerThanItsBackticks(t *testing.T) {
	got := Details("a <b>", "x\n```\ny\n")
	want := "<details><summary>a &lt;b&gt;</summary>\n\n````\nx\n```\ny\n````\n\n</details>\n"
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestComparisonsTableBoldsARegression(t *testing.T) {
	got := Comparisons([]ComparisonRow{
		{Statistic: "ttft_p99", Baseline: "100.00 ms", Candidate: "130.00 ms", Change: "+30.00%", Interval: "[+20.00%, +40.00%]", Tolerance: "5%", Verdict: "regression"},
		{Statistic: "attainment", Baseline: "0.99", Candidate: "0.99", Verdict: "no_regression"},
	})
	want := "| statistic | baseline | candidate | change | interval | tolerance | verdict |\n" +
		"| --- | --- | --- | --- | --- | --- | --- |\n" +
		"| ttft_p99 | 100.00 ms | 130.00 ms | +30.00% | [+20.00%, +40.00%] | 5% | **regression** |\n" +
		"| attainment | 0.99 | 0.99 | – | – | – | no_regression |\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
