package simengine_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/containers/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// completionChunk is the part of a streamed /v1/completions event the specs
// read.
type completionChunk struct {
	Choices []struct {
		Text         string  `json:"text"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// streamCompletion posts a streaming completion and returns its events'
// chunks and whether the stream ended with [DONE].
func streamCompletion(ctx context.Context, baseURL, model string, maxTokens int) ([]completionChunk, bool) {
	body, err := json.Marshal(map[string]any{
		"model": model, "prompt": "Describe the harbour at dawn.", "max_tokens": maxTokens,
		"stream": true, "ignore_eos": true, "stream_options": map[string]bool{"include_usage": true},
	})
	Expect(err).NotTo(HaveOccurred())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+"/v1/completions", bytes.NewReader(body))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	Expect(resp.StatusCode).To(Equal(http.StatusOK))
	Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/event-stream"))

	var chunks []completionChunk
	done := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			done = true
			break
		}
		var c completionChunk
		Expect(json.Unmarshal([]byte(data), &c)).To(Succeed(), "event %q", data)
		chunks = append(chunks, c)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return chunks, done
}

// get returns the status and body of a GET.
func get(ctx context.Context, url string) (int, string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	Expect(err).NotTo(HaveOccurred())
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	Expect(err).NotTo(HaveOccurred())
	return resp.StatusCode, string(b)
}

// dockerClient opens a Docker client the way testcontainers does.
func dockerClient(ctx context.Context) *testcontainers.DockerClient {
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(cli.Close)
	return cli
}

// workload is a small frozen workload: prompts of a few words, 24 output
// tokens each, forced with ignore_eos.
func workload(rows int) *schedule.Workload {
	var b strings.Builder
	for i := range rows {
		fmt.Fprintf(&b, `{"id":"w%02d","prompt":"Summarise note %d about the tide tables in two sentences.","max_tokens":24,"ignore_eos":true}`+"\n", i, i)
	}
	w, err := schedule.ParseWorkload("containers-suite.jsonl", []byte(b.String()))
	Expect(err).NotTo(HaveOccurred())
	return w
}

var _ = Describe("the simulated engine as a container", Ordered, Label("docker"), func() {
	var (
		engine    *simengine.Container
		artifacts string
	)

	BeforeAll(func(ctx SpecContext) {
		requireDocker(ctx)
		var err error
		artifacts, err = containers.ArtifactDir("containers-simengine", time.Now().UTC().Format("20060102T150405.000"))
		Expect(err).NotTo(HaveOccurred())
		engine, err = simengine.Run(ctx, simengine.WithBinary(binary), simengine.WithSeed(7), simengine.WithLogRequests())
		// Registered before the error check: Run can return a container
		// that started but never became ready.
		DeferCleanup(func(ctx SpecContext) {
			if engine != nil && CurrentSpecReport().Failed() {
				AddReportEntry("engine log tail", engine.LogTail(), ReportEntryVisibilityFailureOrVerbose)
			}
			Expect(engine.Shutdown(ctx)).To(Succeed())
		}, NodeTimeout(time.Minute))
		Expect(err).NotTo(HaveOccurred())
	}, NodeTimeout(3*time.Minute))

	It("is ready and healthy on 127.0.0.1", func(ctx SpecContext) {
		Expect(engine.BaseURL()).To(MatchRegexp(`^http://127\.0\.0\.1:\d+$`))
		status, _ := get(ctx, engine.BaseURL()+"/health")
		Expect(status).To(Equal(http.StatusOK))
		Expect(engine.Model()).To(Equal("simengine-tiny"), "the engine's default model, read from /v1/models")
		Expect(engine.MetricsURL()).To(Equal(engine.BaseURL() + "/metrics"))
		status, metrics := get(ctx, engine.MetricsURL())
		Expect(status).To(Equal(http.StatusOK))
		Expect(metrics).To(ContainSubstring("vllm:num_requests_running"))
	}, SpecTimeout(time.Minute))

	It("streams a completion of exactly max_tokens tokens with ignore_eos", func(ctx SpecContext) {
		chunks, done := streamCompletion(ctx, engine.BaseURL(), engine.Model(), 12)
		Expect(done).To(BeTrue(), "the stream ends with data: [DONE]")
		var text strings.Builder
		textEvents, usageTokens := 0, -1
		var finish string
		for _, c := range chunks {
			if c.Usage != nil && len(c.Choices) == 0 {
				usageTokens = c.Usage.CompletionTokens
			}
			for _, ch := range c.Choices {
				if ch.Text != "" {
					textEvents++
					text.WriteString(ch.Text)
				}
				if ch.FinishReason != nil {
					finish = *ch.FinishReason
				}
			}
		}
		// One token per event by default; ignore_eos runs to max_tokens and
		// finishes with "length".
		Expect(textEvents).To(Equal(12))
		Expect(usageTokens).To(Equal(12))
		Expect(finish).To(Equal("length"))
		Expect(strings.TrimSpace(text.String())).NotTo(BeEmpty())
	}, SpecTimeout(time.Minute))

	It("records what was run: image, image ID, command, model, cold start", func(ctx SpecContext) {
		id := engine.Identity()
		Expect(id.Kind).To(Equal("simengine"))
		Expect(id.Image).To(HavePrefix(simengine.ImageRepo + ":"))
		Expect(id.ImageID).To(MatchRegexp(`^sha256:[0-9a-f]{64}$`))
		Expect(id.Model).To(Equal("simengine-tiny"))
		Expect(id.Args).To(Equal([]string{"-seed", "7", "-log-requests"}))
		Expect(id.Version).NotTo(BeEmpty(), "read from GET /version")
		Expect(engine.Command()).To(Equal([]string{"/simengine", "-seed", "7", "-log-requests"}))
		Expect(engine.ColdStart()).To(BeNumerically(">", 0))
		Expect(engine.ColdStart()).To(BeNumerically("<", time.Minute))
		AddReportEntry("simengine cold start", engine.ColdStart().String())

		inspect, err := engine.Inspect(ctx)
		Expect(err).NotTo(HaveOccurred())
		Expect(inspect.Image).To(Equal(id.ImageID))
		Expect(string(inspect.HostConfig.NetworkMode)).To(Equal("host"))
		Expect(inspect.Config.Labels).To(HaveKeyWithValue(module.LabelEngine, "simengine"))
		Expect(inspect.Config.Labels).To(HaveKeyWithValue("org.testcontainers", "true"))
	}, SpecTimeout(time.Minute))

	It("replays a workload through the runner, scores it and meets its SLOs", func(ctx SpecContext) {
		arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 8, Seed: 42})
		Expect(err).NotTo(HaveOccurred())
		slo := report.SLO{TTFT: 2 * time.Second, E2E: 6 * time.Second}
		result, err := servebench.Run(ctx, servebench.RunConfig{
			Workload: workload(12),
			Arrival:  arrival,
			Count:    24,
			Warmup:   2,
			Client: &openai.Client{
				BaseURL: engine.BaseURL(), Model: engine.Model(), Endpoint: record.EndpointCompletions, LengthControl: simengine.LengthControl(),
				FirstTokenTimeout: 10 * time.Second, TotalTimeout: 30 * time.Second,
			},
			// The machine running the suite may be loaded; the tolerance
			// keeps a slow scheduler from voiding the run.
			LagTolerance:  250 * time.Millisecond,
			Score:         score.Options{SLO: slo},
			OutputDir:     filepath.Join(artifacts, "run"),
			EngineControl: servebench.EngineControl{Engine: containers.EngineInfo(engine)},
		})
		Expect(err).NotTo(HaveOccurred())
		report := result.Report
		AddReportEntry("servebench report", report, ReportEntryVisibilityFailureOrVerbose)

		Expect(report.Offered).To(Equal(24))
		Expect(report).To(matchers.MeetSLOs(
			matchers.HaveNoLostRequests(),
			matchers.BeValidLoad(),
			matchers.HaveErrorRateBelow(0.05),
			matchers.HaveAttainmentAtLeast(0.9),
			matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 2*time.Second),
		))
		for _, r := range report.Requests {
			if r.Status == record.StatusSuccess {
				Expect(r.OutputTokens).To(HaveValue(Equal(24)), "request %s: ignore_eos forces max_tokens", r.ID)
			}
		}
		Expect(report.Experiment).NotTo(BeNil())
		Expect(report.Experiment.Engine).NotTo(BeNil())
		Expect(report.Experiment.Engine.ImageID).To(Equal(engine.Identity().ImageID))
		Expect(report.Experiment.Engine.ColdStartMS).NotTo(BeNil())
		Expect(filepath.Join(result.Dir, record.ReportFile)).To(BeAnExistingFile())
	}, SpecTimeout(3*time.Minute))

	It("leaves its log as an artifact and is terminated with its image", func(ctx SpecContext) {
		path := filepath.Join(artifacts, "simengine.log")
		Expect(engine.SaveLogs(ctx, path)).To(Succeed())
		AddReportEntry("engine log", path)
		log, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(log)).To(ContainSubstring("simengine listening on 127.0.0.1:"))
		Expect(string(log)).To(ContainSubstring("/v1/completions"), "-log-requests logs each API request")
		Expect(engine.LogTail()).To(ContainSubstring("simengine listening on"))

		id, imageID := engine.GetContainerID(), engine.Identity().ImageID
		Expect(engine.Shutdown(ctx)).To(Succeed())
		cli := dockerClient(ctx)
		_, err = cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
		Expect(cerrdefs.IsNotFound(err)).To(BeTrue(), "container %s still exists: %v", id, err)
		_, err = cli.ImageInspect(ctx, imageID)
		Expect(cerrdefs.IsNotFound(err)).To(BeTrue(), "image %s still exists: %v", imageID, err)
		Expect(engine.Shutdown(ctx)).To(Succeed(), "a second Shutdown is a no-op")
	}, SpecTimeout(time.Minute))
})

var _ = Describe("the simulated engine on Docker's default bridge", Label("docker"), func() {
	It("publishes its port on 127.0.0.1 only and serves there", func(ctx SpecContext) {
		requireDocker(ctx)
		engine, err := simengine.Run(ctx, simengine.WithBinary(binary), simengine.WithBridgeNetwork(), simengine.WithModel("bridge-model"))
		DeferCleanup(func(ctx SpecContext) { Expect(engine.Shutdown(ctx)).To(Succeed()) }, NodeTimeout(time.Minute))
		Expect(err).NotTo(HaveOccurred())

		inspect, err := engine.Inspect(ctx)
		Expect(err).NotTo(HaveOccurred())
		bindings := inspect.NetworkSettings.Ports[network.MustParsePort("8000/tcp")]
		Expect(bindings).To(HaveLen(1))
		Expect(bindings[0].HostIP).To(Equal(netip.MustParseAddr("127.0.0.1")))
		Expect(engine.BaseURL()).To(Equal("http://127.0.0.1:" + bindings[0].HostPort))

		status, _ := get(ctx, engine.BaseURL()+"/health")
		Expect(status).To(Equal(http.StatusOK))
		Expect(engine.Model()).To(Equal("bridge-model"))
		chunks, done := streamCompletion(ctx, engine.BaseURL(), engine.Model(), 3)
		Expect(done).To(BeTrue())
		Expect(chunks).NotTo(BeEmpty())
	}, SpecTimeout(3*time.Minute))
})
