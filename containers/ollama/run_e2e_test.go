package ollama_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// chatWorkload is n chat rows with distinct prompts (so the prefix cache
// does not hide prefill) and maxTokens each, as workload JSONL.
func chatWorkload(n, maxTokens int) *schedule.Workload {
	words := strings.Fields("the river city world house school light story water night")
	var b strings.Builder
	for i := 0; i < n; i++ {
		row := record.Request{
			ID:        fmt.Sprintf("r%02d", i),
			Messages:  []record.Message{{Role: "user", Content: fmt.Sprintf("%s of the %s, part %d", words[i%len(words)], words[(i*7+3)%len(words)], i)}},
			MaxTokens: maxTokens,
		}
		line, err := json.Marshal(row)
		Expect(err).NotTo(HaveOccurred())
		b.Write(line)
		b.WriteByte('\n')
	}
	w, err := schedule.ParseWorkload("ollama-e2e.jsonl", []byte(b.String()))
	Expect(err).NotTo(HaveOccurred())
	return w
}

var _ = Describe("A benchmark run against Ollama, judged by the matchers", Ordered, func() {
	const (
		requests  = 24
		maxTokens = 16
	)
	var result *servebench.RunResult

	BeforeAll(func(ctx SpecContext) {
		arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 8, Seed: 7})
		Expect(err).NotTo(HaveOccurred())
		client := clientFor(never, record.EndpointChat)
		client.KeepText = false
		start := time.Now()
		result, err = servebench.Run(ctx, servebench.RunConfig{
			Workload: chatWorkload(requests, maxTokens),
			Arrival:  arrival,
			Count:    requests,
			Warmup:   2,
			Client:   client,
			// Generous: the machines this runs on are small and shared.
			LagTolerance: 200 * time.Millisecond,
			Score: score.Options{SLO: report.SLO{
				TTFT: 2 * time.Second, TPOT: 200 * time.Millisecond, E2E: 10 * time.Second,
			}},
			OutputDir:     GinkgoT().TempDir(),
			EngineControl: servebench.EngineControl{Engine: containers.EngineInfo(never)},
		})
		Expect(err).NotTo(HaveOccurred())
		GinkgoWriter.Printf("run of %d requests at 8 rps took %s\n", requests, time.Since(start).Round(time.Millisecond))
	}, NodeTimeout(2*time.Minute))

	It("meets an attainable SLO: every request qualifies and the load was delivered", func() {
		rep := result.Report
		Expect(rep).To(matchers.HaveAttainmentAtLeast(0.95))
		// 24 of 24 at 95 % one-sided: 24/(24+1.645²) = 0.899.
		Expect(rep).To(matchers.HaveWilsonLowerBoundAbove(0.85))
		Expect(rep).To(matchers.HaveNoLostRequests())
		Expect(rep).To(matchers.BeValidLoad())
		Expect(rep.Offered).To(Equal(requests))
		Expect(rep.Experiment).NotTo(BeNil())
		Expect(rep.Experiment.Engine).NotTo(BeNil())
		Expect(rep.Experiment.Engine.Kind).To(Equal("ollama"))
		Expect(rep.Experiment.Engine.Version).To(Equal(never.Identity().Version))
		Expect(rep.Experiment.Engine.ColdStartMS).NotTo(BeNil())
	})

	It("counts every request's tokens from Ollama's usage, one content event per token", func() {
		outcomes, err := record.ReadOutcomes(filepath.Join(result.Dir, record.OutcomesFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(outcomes).To(HaveLen(requests))
		for _, o := range outcomes {
			Expect(o.Status).To(Equal(record.StatusSuccess), "%s: %s", o.ID, o.Error)
			Expect(o.OutputTokens).To(HaveValue(Equal(maxTokens)), o.ID)
			Expect(o.TokenCountSource).To(HaveValue(Equal(record.TokensFromUsage)), o.ID)
			Expect(o.ContentMS).To(HaveLen(maxTokens), o.ID)
			Expect(o.FinishReason).To(Equal("length"), o.ID)
			expectOrderedClocks(o)
		}
	})

	It("fails an unattainable SLO with a message that says why", func() {
		// The same outcomes re-scored with a TTFT bound no engine meets.
		rep, err := score.RunDir(result.Dir, score.Options{SLO: report.SLO{TTFT: 10 * time.Microsecond}})
		Expect(err).NotTo(HaveOccurred())
		m := matchers.HaveAttainmentAtLeast(0.95)
		ok, err := m.Match(rep)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
		msg := m.FailureMessage(rep)
		Expect(msg).To(HavePrefix(fmt.Sprintf("Expected attainment 0.000 (0 of %d offered) to be at least 0.950", requests)))
		Expect(msg).To(ContainSubstring(fmt.Sprintf("unqualified requests by failed criterion (a request can fail several): ttft %d", requests)))
		Expect(msg).To(ContainSubstring(fmt.Sprintf("terminal statuses: success %d", requests)))
		Expect(msg).To(ContainSubstring("SLO: TTFT <= 0.01 ms (from sent)"))
		// The load itself was fine: only the objective failed.
		Expect(rep).To(matchers.BeValidLoad())
	})
})

var _ = Describe("Ollama's identity in the experiment record", func() {
	It("reports the kind, model, version and a cold start that covers serve, create and load", func() {
		id := never.Identity()
		Expect(id.Kind).To(Equal("ollama"))
		Expect(id.Model).To(Equal("tiny"))
		Expect(id.Version).To(MatchRegexp(`^\d+\.\d+\.\d+`))
		Expect(id.Args).To(Equal([]string{"serve"}))
		Expect(never.ColdStart()).To(BeNumerically(">", 0))
		Expect(never.ColdStart()).To(BeNumerically(">=", never.Process.ColdStart()))
		Expect(never.Modelfile()).To(ContainSubstring(fmt.Sprintf("PARAMETER num_predict %d\n", numPredict)))
		Expect(never.Command()[1:]).To(Equal([]string{"serve"}))
	})
})
