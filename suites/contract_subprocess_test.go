package suites_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/gbytes"
	"github.com/onsi/gomega/gexec"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/servebench/compare"
	servebenchreport "github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/suites"
	"github.com/servebench/servebench/sweepreport"
)

// The contract suite in testdata/contractsuite is built once and run in a
// subprocess per contract, as `go test` would run a user's suite.
var _ = Describe("a contract suite run in a subprocess", Ordered, func() {
	var binary string

	BeforeAll(func() {
		// go test -c builds the suite's test binary the way `go test` does;
		// the binary lives in a temporary directory removed after the run.
		binary = filepath.Join(GinkgoT().TempDir(), "contractsuite.test")
		build := exec.Command("go", "test", "-c", "-o", binary, "./testdata/contractsuite")
		out, err := build.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "go test -c: %s", out)
	})

	// run runs the suite on one contract with its artifacts and its JSON
	// report in a fresh directory, and returns the session and the report.
	run := func(ctx SpecContext, contract string) (*gexec.Session, types.Report, string) {
		dir := GinkgoT().TempDir()
		reportPath := filepath.Join(dir, "report.json")
		cmd := exec.CommandContext(ctx, binary, "-ginkgo.no-color", "-ginkgo.json-report="+reportPath)
		cmd.Dir = "testdata/contractsuite"
		// The subprocess judges skips itself: CI's "require an engine"
		// switches would turn the unavailable-engine case into a failure.
		cmd.Env = append(os.Environ(), "SUITE_CONTRACT="+contract, suites.EnvArtifacts+"="+filepath.Join(dir, "artifacts"),
			"SUITE_JUNIT="+filepath.Join(dir, "junit.xml"), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary.md"),
			containers.EnvRequireDocker+"=", containers.EnvRequireGPU+"=")
		session, err := gexec.Start(cmd, GinkgoWriter, GinkgoWriter)
		Expect(err).NotTo(HaveOccurred())
		Eventually(ctx, session).Should(gexec.Exit())
		b, err := os.ReadFile(reportPath)
		Expect(err).NotTo(HaveOccurred())
		var reports []types.Report
		Expect(json.Unmarshal(b, &reports)).To(Succeed())
		Expect(reports).To(HaveLen(1))
		return session, reports[0], dir
	}

	// runEntry finds the servebench report entry of a suite report.
	runEntry := func(r types.Report) suites.RunEntry {
		for _, spec := range r.SpecReports {
			for _, e := range spec.ReportEntries {
				if e.Name == suites.ReportEntryName {
					var entry suites.RunEntry
					Expect(json.Unmarshal([]byte(e.Value.AsJSON), &entry)).To(Succeed())
					return entry
				}
			}
		}
		Fail("no servebench report entry in the suite report")
		return suites.RunEntry{}
	}

	It("fails an unmeetable contract, naming the objective and the measured value", func(ctx SpecContext) {
		session, report, dir := run(ctx, "unmeetable.yaml")
		Expect(session.ExitCode()).NotTo(Equal(0))

		entry := runEntry(report)
		Expect(entry.Report).NotTo(BeNil())
		Expect(entry.Report.Offered).To(Equal(40))
		Expect(entry.Report.Qualified).To(BeNumerically("<", 38), "half the requests fail with HTTP 500")
		measured := fmt.Sprintf("Expected attainment %.3f (%d of 40 offered) to be at least 0.950",
			float64(entry.Report.Qualified)/40, entry.Report.Qualified)

		var failed []string
		for _, spec := range report.SpecReports {
			if spec.State == types.SpecStateFailed {
				failed = append(failed, spec.LeafNodeText)
				if spec.LeafNodeText == "attainment >= 0.950" {
					Expect(spec.Failure.Message).To(HavePrefix("unmeetable.yaml:24: attainment >= 0.950\n"+measured),
						"the first line names the objective's contract line")
					Expect(spec.LeafNodeLocation.FileName).To(Equal("unmeetable.yaml"))
					Expect(spec.LeafNodeLocation.LineNumber).To(Equal(24), "the line of objectives.attainment")
				}
			}
		}
		Expect(failed).To(ContainElement("attainment >= 0.950"))
		Expect(session.Out).To(gbytes.Say(`\[FAIL\] contract simengine-unmeetable poisson 40 requests at 20 req/s \[It\] attainment >= 0.950`))
		Expect(string(session.Out.Contents())).To(ContainSubstring("unmeetable.yaml:24: attainment >= 0.950\n  " + measured))

		By("locating the failure at the contract line in the JUnit report")
		junit, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
		Expect(err).NotTo(HaveOccurred())
		var suitesXML reporters.JUnitTestSuites
		Expect(xml.Unmarshal(junit, &suitesXML)).To(Succeed())
		Expect(suitesXML.TestSuites).To(HaveLen(1))
		var description string
		for _, tc := range suitesXML.TestSuites[0].TestCases {
			if strings.Contains(tc.Name, "20 req/s attainment >= 0.950 [") {
				Expect(tc.Failure).NotTo(BeNil())
				description = tc.Failure.Description
			}
		}
		Expect(description).To(ContainSubstring("In [It] at: unmeetable.yaml:24"))
		Expect(description).NotTo(ContainSubstring("register.go"))

		By("keeping the run directory under the chosen artifacts directory")
		Expect(entry.Dir).To(HavePrefix(filepath.Join(dir, "artifacts", "simengine-unmeetable")))
		for _, f := range []string{"schedule.json", "outcomes.jsonl", "report.json", suites.ContractFile} {
			Expect(filepath.Join(entry.Dir, f)).To(BeARegularFile())
		}
	}, SpecTimeout(5*time.Minute))

	It("passes the same suite with a meetable contract", func(ctx SpecContext) {
		session, report, dir := run(ctx, "meetable.yaml")
		Expect(session.ExitCode()).To(Equal(0), string(session.Out.Contents()))
		var passed []string
		for _, spec := range report.SpecReports {
			if spec.LeafNodeType != types.NodeTypeIt {
				continue
			}
			if spec.LeafNodeText == "p99 TTFT <= 5000 ms" {
				Expect(spec.State).To(Equal(types.SpecStateSkipped))
				Expect(spec.Failure.Message).To(HavePrefix("unjudged: p99 TTFT needs at least 500 observations for 5 to lie beyond it, and its population has 40 ("))
				continue
			}
			Expect(spec.State).To(Equal(types.SpecStatePassed))
			passed = append(passed, spec.LeafNodeText)
		}
		Expect(passed).To(Equal([]string{"no lost requests", "valid load", "attainment >= 0.950", "p80 TTFT <= 5000 ms", "error rate <= 0.010"}))
		By("appending the contract's verdicts to $GITHUB_STEP_SUMMARY")
		summary, err := os.ReadFile(filepath.Join(dir, "summary.md"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(summary)).To(HavePrefix("#### simengine-meetable (`meetable.yaml`)\n\n| objective | where | measured | bound | verdict |\n"))
		Expect(string(summary)).To(ContainSubstring("| attainment | meetable.yaml:23, poisson 40 requests at 20 req/s | 1.000 (40 of 40) | >= 0.950 | pass |\n"))
		Expect(string(summary)).To(ContainSubstring("| p99 TTFT | meetable.yaml:29, poisson 40 requests at 20 req/s | no value: p99 TTFT needs at least 500 observations"))
		entry := runEntry(report)
		Expect(entry.Report.Offered).To(Equal(40))
		Expect(entry.Report.Qualified).To(Equal(40))

		By("adding the objectives' verdicts to the load point's report.json")
		written, err := servebenchreport.ReadFile(filepath.Join(entry.Dir, "report.json"))
		Expect(err).NotTo(HaveOccurred())
		var verdicts []string
		for _, o := range written.Objectives {
			verdicts = append(verdicts, o.Name+": "+string(o.Verdict))
		}
		Expect(verdicts).To(Equal([]string{"no lost requests: pass", "valid load: pass", "attainment >= 0.950: pass",
			"p80 TTFT <= 5000 ms: pass", "p99 TTFT <= 5000 ms: unjudged", "error rate <= 0.010: pass"}))
		// 40 of 40 qualified: attainment 1 against 0.95.
		Expect(*written.Objectives[2].Measured).To(Equal(1.0))
		Expect(*written.Objectives[2].Bound).To(Equal(0.95))
		Expect(written.Objectives[4].Measured).To(BeNil())
		Expect(written.Objectives[4].Reason).To(HavePrefix("p99 TTFT needs at least 500 observations for 5 to lie beyond it, and its population has 40 ("))
	}, SpecTimeout(5*time.Minute))

	It("runs a sweep point by point and judges its capacity", func(ctx SpecContext) {
		session, report, _ := run(ctx, "sweep.yaml")
		Expect(session.ExitCode()).To(Equal(0), string(session.Out.Contents()))
		var specs []string
		for _, spec := range report.SpecReports {
			if spec.LeafNodeType == types.NodeTypeIt {
				specs = append(specs, spec.FullText())
			}
		}
		Expect(specs).To(Equal([]string{
			"contract simengine-sweep constant 30 requests at 10 req/s no lost requests",
			"contract simengine-sweep constant 30 requests at 10 req/s valid load",
			"contract simengine-sweep constant 30 requests at 10 req/s attainment >= 0.900",
			"contract simengine-sweep constant 30 requests at 20 req/s no lost requests",
			"contract simengine-sweep constant 30 requests at 20 req/s valid load",
			"contract simengine-sweep constant 30 requests at 20 req/s attainment >= 0.900",
			"contract simengine-sweep SLO capacity >= 20.000 req/s",
		}))
		By("keeping sweep.json and sweep.html with the artifacts and in the report")
		var entry *suites.SweepEntry
		for _, spec := range report.SpecReports {
			for _, e := range spec.ReportEntries {
				if e.Name == suites.SweepEntryName {
					entry = &suites.SweepEntry{}
					Expect(json.Unmarshal([]byte(e.Value.AsJSON), entry)).To(Succeed())
				}
			}
		}
		Expect(entry).NotTo(BeNil(), "no sweep report entry")
		Expect(entry.Sweep.Rates).To(HaveLen(2))
		Expect(*entry.Sweep.KneeRPS).To(Equal(20.0))
		Expect(entry.JSON).To(BeARegularFile())
		Expect(entry.HTML).To(BeARegularFile())
		onDisk, err := sweepreport.Load(entry.JSON)
		Expect(err).NotTo(HaveOccurred())
		Expect(onDisk.Rates[1].RunDir).To(HavePrefix("../"), "run directories are linked relative to the sweep's")
	}, SpecTimeout(5*time.Minute))
	It("skips the specs of a contract whose engine cannot run here, saying why", func(ctx SpecContext) {
		session, report, _ := run(ctx, "unregistered/unavailable.yaml")
		Expect(session.ExitCode()).To(Equal(0), string(session.Out.Contents()))
		var skipped, reasons []string
		for _, spec := range report.SpecReports {
			if spec.LeafNodeType == types.NodeTypeIt {
				Expect(spec.State).To(Equal(types.SpecStateSkipped))
				skipped = append(skipped, spec.LeafNodeText)
				reasons = append(reasons, spec.Failure.Message)
			}
		}
		Expect(skipped).To(Equal([]string{"no lost requests", "valid load", "attainment >= 0.900"}))
		Expect(reasons).To(ContainElement(
			"contract engine-unavailable: start absent engine: engine unavailable on this machine: the absent engine exists nowhere"))
	}, SpecTimeout(5*time.Minute))

	It("runs alternating rounds per rate, one spec per comparison at its line, and compares capacities", func(ctx SpecContext) {
		session, report, dir := run(ctx, "baseline.yaml")
		Expect(session.ExitCode()).NotTo(Equal(0))
		states := map[string]types.SpecState{}
		entries := 0
		for _, spec := range report.SpecReports {
			if spec.LeafNodeType != types.NodeTypeIt {
				continue
			}
			states[spec.FullText()] = spec.State
			if spec.LeafNodeText == "p50 TPOT no more than 50 % worse than baseline" {
				Expect(spec.LeafNodeLocation.FileName).To(Equal("baseline.yaml"))
				Expect(spec.LeafNodeLocation.LineNumber).To(Equal(30), "the line of baseline.tolerances.tpot_p50")
				Expect(spec.Failure.Message).To(HavePrefix("baseline.yaml:30: p50 TPOT no more than 50 % worse than baseline\n"))
				Expect(spec.Failure.Message).To(ContainSubstring("tpot_p50: baseline"))
				Expect(spec.Failure.Message).To(ContainSubstring("): regression"))
			}
			for _, e := range spec.ReportEntries {
				if e.Name != suites.ComparisonEntryName {
					continue
				}
				entries++
				// One line, no Go struct, and the full comparison in a file.
				Expect(e.Value.Representation).NotTo(ContainSubstring("\n"))
				Expect(e.Value.Representation).NotTo(ContainSubstring("0x"))
				Expect(e.Value.Representation).To(MatchRegexp(`^\{\{bold\}\}simengine-against-baseline, poisson 10 requests at (5|10) req/s against baseline\{\{/\}\}: \{\{red\}\}regression\{\{/\}\} \(exit 5\), 3 rounds per side, engines reused; tpot_p50 regression \+[0-9.]+% \[\+[0-9.]+%, \+[0-9.]+%\]; full comparison /.*compare.json$`))
				var entry suites.ComparisonEntry
				Expect(json.Unmarshal([]byte(e.Value.AsJSON), &entry)).To(Succeed())
				Expect(entry.File).To(HaveSuffix("compare.json"))
				Expect(entry.File).To(BeAnExistingFile())
				Expect(entry.Verdict).To(Equal(compare.Regression))
			}
		}
		Expect(entries).To(Equal(2), "one comparison entry per rate")
		at := func(rate string) string {
			return "contract simengine-against-baseline poisson 10 requests at " + rate + " req/s against baseline "
		}
		want := map[string]types.SpecState{"contract simengine-against-baseline SLO capacity >= 5.000 req/s": types.SpecStatePassed,
			"contract simengine-against-baseline SLO capacity no lower than baseline": types.SpecStatePassed}
		// Above the declared capacity (5 req/s) only the capacity rule
		// judges a rate, as without a baseline.
		want[at("5")+"valid load"] = types.SpecStatePassed
		want[at("5")+"attainment >= 0.900"] = types.SpecStatePassed
		for _, rate := range []string{"5", "10"} {
			want[at(rate)+"no lost requests"] = types.SpecStatePassed
			want[at(rate)+"p50 TPOT no more than 50 % worse than baseline"] = types.SpecStateFailed
			want[at(rate)+"attainment no more than 20 points below baseline"] = types.SpecStatePassed
		}
		Expect(states).To(Equal(want))
		rounds, err := filepath.Glob(filepath.Join(dir, "artifacts", "simengine-against-baseline", "*-5rps-ab", "*", "round-*", "report.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(rounds).To(HaveLen(6), "three rounds on each side, every run kept")
		By("adding each candidate round's own objective verdicts to its report.json, and none to the baseline's")
		for _, path := range rounds {
			written, err := servebenchreport.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			if filepath.Base(filepath.Dir(filepath.Dir(path))) == "baseline" {
				Expect(written.Objectives).To(BeNil(), path)
				continue
			}
			var names []string
			for _, o := range written.Objectives {
				names = append(names, o.Name)
			}
			Expect(names).To(Equal([]string{"no lost requests", "valid load", "attainment >= 0.900"}), path)
			// The attainment judged is the round's own: qualified of 10.
			Expect(*written.Objectives[2].Measured).To(Equal(float64(written.Qualified)/10), path)
			Expect(*written.Objectives[2].Bound).To(Equal(0.9), path)
		}
	}, SpecTimeout(5*time.Minute))
})
