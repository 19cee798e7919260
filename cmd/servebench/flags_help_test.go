package main

import (
	"flag"
	"net"
	"path/filepath"
	"strings"
	"testing"
)

// commandArgs is how each command (and each subcommand with its own
// flags) is reached before its flags.
func commandArgs() [][]string {
	var out [][]string
	for name := range commands {
		switch name {
		case "k8s":
			out = append(out, []string{"k8s", "job"}, []string{"k8s", "merge-job"}, []string{"k8s", "unpack-workload"})
		case "workload":
			out = append(out, []string{"workload", "generate", "fixed"}, []string{"workload", "import", "sharegpt", "f.json"})
		default:
			out = append(out, []string{name})
		}
	}
	return out
}

func TestEveryCommandAnswersAnUnknownFlagInOneLine(t *testing.T) {
	for _, args := range commandArgs() {
		code, _, stderr := runCLI(append(args, "--no-such-flag-here")...)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(stderr, "unknown flag --no-such-flag-here") ||
			!strings.Contains(stderr, "-h lists its flags") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and one line naming the flag and -h", args, code, stderr)
		}
	}
}

func TestAMistypedFlagGetsTheNearestName(t *testing.T) {
	code, _, stderr := runCLI("run", "--ttft-sol", "300ms")
	want := "servebench run: unknown flag --ttft-sol; did you mean --ttft-slo? (servebench run -h lists its flags)\n"
	if code != 1 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want %q", code, stderr, want)
	}
	// A single dash is read the same way.
	if _, _, stderr := runCLI("sweep", "-ratess", "1"); !strings.Contains(stderr, "did you mean --rates?") {
		t.Errorf("sweep -ratess: %q", stderr)
	}
}

func TestNearestFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	for _, n := range []string{"ttft-slo", "tpot-slo", "e2e-slo", "rates", "workload"} {
		fs.Bool(n, false, "")
	}
	for typo, want := range map[string]string{
		"ttft-sol":  "ttft-slo", // a transposition: 2 edits
		"tpot-sl":   "tpot-slo", // 1 deletion
		"rate":      "rates",
		"workloads": "workload",
		"model":     "", // 5 edits from anything: no guess
		"x":         "",
	} {
		if got := nearestFlag(fs, typo); got != want {
			t.Errorf("nearestFlag(%q) = %q, want %q", typo, got, want)
		}
	}
	// Levenshtein distances computed by hand.
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "abc", 3}, {"kitten", "sitting", 3}, {"ttft-sol", "ttft-slo", 2}, {"same", "same", 0}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}

func TestHelpListsOnlyTheFlagsACommandAccepts(t *testing.T) {
	for cmd, refused := range map[string][]refusedFlag{"ab": abRefusedFlags, "sweep": sweepRefusedFlags} {
		code, _, help := runCLI(cmd, "-h")
		if code != 0 || !strings.Contains(help, "-workload") {
			t.Fatalf("%s -h: exit %d, %q", cmd, code, help)
		}
		for _, r := range refused {
			if strings.Contains(help, "\n  -"+r.name+" ") || strings.Contains(help, "\n  -"+r.name+"\n") {
				t.Errorf("%s -h lists --%s, which it refuses", cmd, r.name)
			}
			code, _, stderr := runCLI(cmd, "--"+r.name+"=1")
			if r.deprecated {
				// Taken and ignored with a warning for one release.
				if !strings.Contains(stderr, "warning: --"+r.name+" is deprecated and ignored ("+r.why+")") {
					t.Errorf("%s --%s: stderr %q", cmd, r.name, stderr)
				}
				continue
			}
			if code != 1 || !strings.Contains(stderr, "--"+r.name+" is refused: "+r.why) {
				t.Errorf("%s --%s: exit %d, stderr %q", cmd, r.name, code, stderr)
			}
		}
	}
	for _, name := range []string{"base-url", "shard", "require-attainment", "start-at", "metrics-url", "run-id", "format"} {
		if !refusedNamed(abRefusedFlags, name) {
			t.Errorf("ab accepts --%s", name)
		}
	}
	// sweep takes --rate with --working-set only (TestWorkingSetSweepRefusals).
	for _, name := range []string{"shard", "start-at", "require-attainment"} {
		if !refusedNamed(sweepRefusedFlags, name) {
			t.Errorf("sweep accepts --%s", name)
		}
	}
	// run still lists them all.
	_, _, help := runCLI("run", "-h")
	for _, name := range []string{"rate", "shard", "start-at", "require-attainment", "base-url", "format"} {
		if !strings.Contains(help, "\n  -"+name+" ") {
			t.Errorf("run -h lacks --%s", name)
		}
	}
}

func refusedNamed(rs []refusedFlag, name string) bool {
	for _, r := range rs {
		if r.name == name {
			return true
		}
	}
	return false
}

func TestFlagsWithAFixedValueSetListTheirValues(t *testing.T) {
	_, _, help := runCLI("workload", "generate", "fixed", "-h")
	for _, want := range []string{
		"output (fixtures.OutputPolicy: one of ignore_eos, natural)",
		"cache_policy (fixtures.CachePolicy: one of cold, warm, disabled)",
		"endpoint (record.Endpoint: one of completions, chat, responses, messages, embeddings, rerank, rerank-tei, pair-score)",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("workload generate fixed -h lacks %q:\n%s", want, help)
		}
	}
}

func TestAClosedPortIsNamedAndSkippingThePreflightIsNotSuggested(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(append(runArgs(t, url), "--output", filepath.Join(t.TempDir(), "run"))...)
	want := "servebench run: preflight: GET /v1/models: " + url + " refused the connection: the port is closed, nothing listens there (connection refused); start the engine or correct --base-url\n"
	if code != 1 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want %q", code, stderr, want)
	}
}

func TestDeprecatedFlagsAreDroppedWithTheirValues(t *testing.T) {
	fs := flag.NewFlagSet("servebench sweep", flag.ContinueOnError)
	var warn strings.Builder
	fs.SetOutput(&warn)
	rates := fs.String("rates", "", "")
	refused := []refusedFlag{{"require-attainment", "use --min-attainment", true}, {"rate", "use --rates", false}}
	if err := parseFlags(fs, []string{"--require-attainment", "0.9", "--rates", "1,2", "-require-attainment=0.5"}, refused...); err != nil {
		t.Fatal(err)
	}
	if *rates != "1,2" || fs.NArg() != 0 || strings.Count(warn.String(), "--require-attainment is deprecated and ignored (use --min-attainment)") != 2 {
		t.Fatalf("rates %q, args %q, warnings %q", *rates, fs.Args(), warn.String())
	}
}
