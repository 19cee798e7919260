package suites_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/traces"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("workload generators and imports in a contract", func() {
	It("reaches the shared-prefix, multi-turn and incident generators", func() {
		c, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: shared-prefix, seed: 2, groups: 2, requests_per_group: 3}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(6), "2 groups of 3")
		c, err = suites.Parse(inline, []byte(edit(5, "  generator: {kind: incident, count: 5, seed: 1}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(5))
		var want bytes.Buffer
		_, err = fixtures.Generate(&want, fixtures.Incident{Seed: 1, Requests: 5})
		Expect(err).NotTo(HaveOccurred())
		got, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: incident, count: 5, seed: 1}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Workload.SHA256).To(Equal(c.Workload.SHA256))
		_, err = suites.Parse(inline, []byte(edit(5, "  generator: {kind: multi-turn, count: 2, seed: 1, turns: 9}")))
		Expect(err).To(MatchError(ContainSubstring(`testdata/inline.yaml:5:14: workload.generator: multi-turn: generator multi-turn: parameters: json: unknown field "turns"`)))
	})

	It("imports a trace named in the contract, relative to it", func() {
		c, err := suites.Parse(inline, []byte(edit(5, "  import: {format: burstgpt, file: ../../fixtures/samples/burstgpt-sample.csv, failed: drop, limit: 4}")))
		Expect(err).NotTo(HaveOccurred())
		raw, err := os.ReadFile("../fixtures/samples/burstgpt-sample.csv")
		Expect(err).NotTo(HaveOccurred())
		var want bytes.Buffer
		_, err = traces.ImportBurstGPT(&want, bytes.NewReader(raw), "x", traces.BurstGPTOptions{Failed: traces.DropFailed, Limit: 4})
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(4))
		sum := sha256.Sum256(want.Bytes())
		Expect(c.Workload.SHA256).To(Equal(hex.EncodeToString(sum[:])), "the importer's exact bytes")
		Expect(c.WorkloadSource).To(Equal("burstgpt import of ../fixtures/samples/burstgpt-sample.csv"))
	})

	It("reports an import's errors at the import, with the trace's file and line", func() {
		_, err := suites.Parse(inline, []byte(edit(5, "  import: {format: burstgpt, file: ../../fixtures/samples/burstgpt-sample.csv}")))
		Expect(err).To(MatchError(ContainSubstring("testdata/inline.yaml:5:11: workload.import: ../fixtures/samples/burstgpt-sample.csv: failed rows")))
		_, err = suites.Parse(inline, []byte(edit(5, "  import: {format: csv, file: x.csv}")))
		Expect(err).To(MatchError(ContainSubstring(`workload.import: no importer for format "csv"`)))
		_, err = suites.Parse(inline, []byte(edit(5, "  import: {format: burstgpt}")))
		Expect(err).To(MatchError(ContainSubstring("workload.import: give format ([agentx burstgpt images mooncake sharegpt tracelab]) and file")))
	})
})
