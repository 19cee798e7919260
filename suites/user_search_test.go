package suites_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("A user search (arrival.users: auto)", func() {
	It("reads users: auto, the search section and the concurrency objective", func() {
		c := mustParse(`name: users
base_url: http://127.0.0.1:1
model: m
workload:
  file: workload.jsonl
arrival:
  process: closed
  users: auto
  think_time: 50ms
count: 24
search:
  max_users: 16
  boundary_runs: 1
objectives:
  attainment: 0.99
  concurrency: 3
`)
		Expect(c.Arrival.UsersAuto).To(BeTrue())
		Expect(*c.UserSearch).To(Equal(capacity.AutoUsers{StartUsers: 1, MaxUsers: 16, Tolerance: 0.1, BoundaryRuns: 1}))
		Expect(*c.Objectives.Concurrency).To(Equal(3))
		Expect(c.Points()).To(HaveLen(1))
		o, ok := c.ConcurrencyObjective()
		Expect(ok).To(BeTrue())
		Expect(o.Name).To(ContainSubstring("SLO concurrency >= 3 users"))
	})

	DescribeTable("refuses what does not apply",
		func(yaml, want string) {
			_, err := suites.Parse(inline, []byte(yaml))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a concurrency objective without a search", edit(0, "objectives:\n  concurrency: 4"),
			"objectives.concurrency: applies to a user search: give arrival.users: auto"),
		Entry("a search section without users: auto", edit(0, "search:\n  max_users: 4"),
			"search: applies to a user search: give arrival.users: auto"),
	)

	It("searches the SLO concurrency and keeps every run with sweep.json", func(ctx SpecContext) {
		// A front admits at most 3 requests at once and answers 429 to a
		// fourth; with a 150 ms think time 3 users are never refused (a
		// user's next request comes long after its last left the front,
		// even on a busy machine) and 4 always are: the bracket is [3, 4].
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		sim, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(sim.Close)
		var inflight atomic.Int64
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost {
				if inflight.Add(1) > 3 {
					inflight.Add(-1)
					http.Error(w, "busy", http.StatusTooManyRequests)
					return
				}
				defer inflight.Add(-1)
			}
			sim.Handler().ServeHTTP(w, r)
		}))
		DeferCleanup(front.Close)
		c := mustParse(`name: users
base_url: ` + front.URL + `
model: ` + cfg.Model + `
workload:
  file: workload.jsonl
arrival:
  process: closed
  users: auto
  think_time: 150ms
count: 24
search:
  max_users: 16
  boundary_runs: 1
objectives:
  attainment: 0.99
  concurrency: 3
artifacts: ` + GinkgoT().TempDir() + `
`)
		sw, entry, err := c.RunUserSearch(context.Background(), suites.Target{BaseURL: front.URL, Model: cfg.Model})
		Expect(err).NotTo(HaveOccurred())
		Expect(*sw.Concurrency.Users).To(Equal(3))
		Expect(*sw.Capacity.Low).To(Equal(3.0))
		Expect(*sw.Capacity.High).To(Equal(4.0))
		Expect(sw.Capacity.Unit).To(Equal(capacity.UnitUsers))
		Expect(entry.JSON).To(BeAnExistingFile())
		Expect(filepath.Join(entry.Dir, "users-3", record.ReportFile)).To(BeAnExistingFile())
		data, err := os.ReadFile(entry.JSON)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(ContainSubstring(`"slo_concurrency_users": 3`))
		o, _ := c.ConcurrencyObjective()
		Expect(sw).To(o.Matcher)
	})
})
