package suites

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/sweepreport"
)

// userSearchPoint is the one load point of a user search, for its name,
// directory and budget.
var userSearchPoint = LoadPoint{Name: "closed-loop user search (SLO concurrency)", Dir: "users-search"}

// concurrency reads the concurrency objective: the least SLO concurrency,
// in users, of a contract whose arrival declares "users: auto".
func (d *decoder) concurrency(o *mapping, search bool) *int {
	n := o.get("concurrency")
	if n == nil {
		return nil
	}
	if !search {
		d.errorf(n, "objectives.concurrency", "applies to a user search: give arrival.users: auto")
		return nil
	}
	v := d.integer(o, "concurrency", 1)
	return &v
}

// userSearch reads the search section of a contract whose arrival
// declares "users: auto": start_users, max_users, tolerance and
// boundary_runs (defaults 1, 1024, 0.1 and 3).
func (d *decoder) userSearch(m *mapping, c *Contract) {
	if !c.Arrival.UsersAuto {
		if m.has("search") {
			d.errorf(m.get("search"), "search", "applies to a user search: give arrival.users: auto")
		}
		return
	}
	a := &capacity.AutoUsers{StartUsers: 1, MaxUsers: 1024, Tolerance: 0.1, BoundaryRuns: 3}
	c.UserSearch = a
	s := d.mapping(orEmpty(m.get("search")), "search", "start_users", "max_users", "tolerance", "boundary_runs")
	if s == nil {
		return
	}
	if s.has("start_users") {
		a.StartUsers = d.integer(s, "start_users", 1)
	}
	if s.has("max_users") {
		a.MaxUsers = d.integer(s, "max_users", 1)
	}
	if s.has("boundary_runs") {
		a.BoundaryRuns = d.integer(s, "boundary_runs", 0)
	}
	if v := d.fraction(s, "tolerance"); v != nil {
		a.Tolerance = *v
	}
	if err := a.Check(); err != nil {
		d.errorf(s.node, "search", "%v", err)
	}
}

// concurrencyRule is the rule a user search judges each number of users
// by: the attainment objective's α (else 0.95) at the objectives'
// confidence.
func (c *Contract) concurrencyRule() capacity.Rule {
	rule := capacity.Rule{MinAttainment: 0.95, Confidence: c.Objectives.Confidence}
	if a := c.Objectives.Attainment; a != nil && *a > 0 {
		rule.MinAttainment = *a
	}
	return rule
}

// RunUserSearch runs the contract's closed-loop user search against
// target, keeps every run, sweep.json and sweep.html under
// <root>/<contract>/<UTC time>-users, and returns the sweep with its
// report entry. The sweep is returned with the error of a search cut
// short.
func (c *Contract) RunUserSearch(ctx context.Context, target Target) (*capacity.Sweep, *SweepEntry, error) {
	if c.UserSearch == nil {
		return nil, nil, fmt.Errorf("contract %s: not a user search (arrival.users: auto)", c.Name)
	}
	cfg, err := c.runConfig(userSearchPoint, target)
	if err != nil {
		return nil, nil, err
	}
	if err := c.loadAdapters(ctx, &cfg); err != nil {
		return nil, nil, fmt.Errorf("contract %s, %s: %w", c.Name, userSearchPoint.Name, err)
	}
	rep, err := openai.CheckServedModel(ctx, cfg.Client)
	if err == nil {
		err = servebench.CheckServedAdapters(rep.ServedModels, cfg.LoRA.Mix)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("contract %s, %s: %w", c.Name, userSearchPoint.Name, err)
	}
	dir := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), time.Now().UTC().Format("20060102T150405.000Z")+"-users")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	cfg.OutputDir = dir
	stopImages, err := c.prepareImages(&cfg)
	if err != nil {
		return nil, nil, err
	}
	defer stopImages()
	search := *c.UserSearch
	sw, err := capacity.RunSweep(ctx, cfg, capacity.Plan{Users: &search, Rule: c.concurrencyRule()})
	if sw == nil {
		return nil, nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	res := sweepreport.FromSweep(sw, dir)
	if werr := res.WriteFiles(dir); werr != nil {
		return sw, nil, fmt.Errorf("contract %s: %w", c.Name, werr)
	}
	entry := &SweepEntry{Contract: c.Name, Dir: dir, JSON: filepath.Join(dir, sweepreport.JSONFile),
		HTML: filepath.Join(dir, sweepreport.HTMLFile), Sweep: res}
	if err != nil {
		return sw, entry, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	return sw, entry, nil
}

// ConcurrencyObjective returns the user search's concurrency objective;
// ok is false when the contract declares none.
func (c *Contract) ConcurrencyObjective() (o Objective, ok bool) {
	if c.Objectives.Concurrency == nil {
		return Objective{}, false
	}
	return objective("objectives.concurrency", matchers.HaveConcurrencyAtLeast(*c.Objectives.Concurrency)), true
}

// searchLocation is where a contract declares its user search.
func (c *Contract) searchLocation() types.CodeLocation {
	return c.Location("arrival.users", "arrival")
}

// runSearch runs the user search against the run's target.
func (r *contractRun) runSearch(ctx context.Context) (*capacity.Sweep, *SweepEntry, error) {
	fmt.Fprintf(r.log, "servebench: running %s, %s against %s\n", r.c.Name, userSearchPoint.Name, r.target.BaseURL)
	return r.c.RunUserSearch(ctx, r.target)
}

// searchFailureHeading heads the failure of a search that did not
// complete.
func (c *Contract) searchFailureHeading() string {
	return failureHeading(c.searchLocation(), userSearchPoint.Name+": the search did not complete")
}

// judgeConcurrency judges the concurrency objective o on the search's
// sweep.
func (c *Contract) judgeConcurrency(o Objective, sweep *capacity.Sweep) Verdict {
	at := c.Location(o.Field)
	v := Verdict{Contract: c.Name, LoadPoint: userSearchPoint.Name, Name: o.Name, At: at}
	return judge(v, o.Matcher, sweep, failureHeading(at, o.Name))
}

// registerUserSearch builds a user search's specs: the search in a
// BeforeAll (every run kept, sweep.json and sweep.html attached to the
// report), then one It for the concurrency objective, when declared. Its
// budget is a load point's times the search's run bound.
func registerUserSearch(run *contractRun) {
	c := run.c
	ginkgo.Describe(userSearchPoint.Name, c.searchLocation(), func() {
		var sweep *capacity.Sweep
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			sw, entry, err := run.runSearch(ctx)
			if entry != nil {
				ginkgo.AddReportEntry(SweepEntryName, entry, ginkgo.ReportEntryVisibilityAlways, c.searchLocation())
			}
			sweep = sw
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.searchFailureHeading())
		}, ginkgo.NodeTimeout(c.RunBudget(userSearchPoint)*userSearchRunBound), ginkgo.GracePeriod(loadGracePeriod))
		if o, ok := c.ConcurrencyObjective(); ok {
			ginkgo.It(o.Name, c.Location(o.Field), func() {
				failOn(c.judgeConcurrency(o, sweep))
			})
		}
	})
}

// userSearchRunBound bounds the runs of one user search in its budget.
const userSearchRunBound = 64
