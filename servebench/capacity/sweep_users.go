package capacity

import (
	"context"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
)

// AutoUsers is the closed-loop search for the SLO concurrency: it doubles
// the users from StartUsers while the attainment target holds, then bisects
// between the highest pass and the lowest fail until they are within
// Tolerance of each other (relative to the pass, and at least one user
// apart), then replicates runs at the two boundary points until the
// pooled attainment separates them at the rule's confidence or
// BoundaryRuns more runs per point are spent. Every run is kept.
type AutoUsers struct {
	// StartUsers is the first number of users tried (default 1).
	StartUsers int `json:"start_users"`
	// MaxUsers bounds the doubling; a search that passes at MaxUsers stops
	// there and says the boundary lies above (default 1024).
	MaxUsers int `json:"max_users"`
	// Tolerance is the relative bracket width at which bisection stops
	// (default 0.1).
	Tolerance float64 `json:"tolerance"`
	// BoundaryRuns is the budget of extra runs at each boundary point (0:
	// none).
	BoundaryRuns int `json:"boundary_runs"`
	// Doubled, Bisected and Replicated list the users tried in each
	// phase, in order.
	Doubled    []int `json:"doubled_users"`
	Bisected   []int `json:"bisected_users"`
	Replicated []int `json:"replicated_users"`
	// Bracket is the search's [highest pass, lowest fail] before
	// replication; either is nil when the search never found one.
	Bracket [2]*int `json:"bracket_users"`
}

// autoUsersMaxRuns bounds the runs one search may make, whatever its
// settings.
const autoUsersMaxRuns = 64

// Check fills the search's defaults (1 user to start, at most 1024, a
// tolerance of 0.1) and refuses settings it cannot search with.
func (a *AutoUsers) Check() error {
	if a.StartUsers == 0 {
		a.StartUsers = 1
	}
	if a.MaxUsers == 0 {
		a.MaxUsers = 1024
	}
	if a.Tolerance == 0 {
		a.Tolerance = 0.1
	}
	switch {
	case a.StartUsers < 1:
		return fmt.Errorf("sweep: auto start users must be at least 1, got %d", a.StartUsers)
	case a.MaxUsers < a.StartUsers:
		return fmt.Errorf("sweep: auto max users %d must be at least the start %d", a.MaxUsers, a.StartUsers)
	case !(a.Tolerance > 0 && a.Tolerance < 1):
		return fmt.Errorf("sweep: auto tolerance must be in (0, 1), got %g", a.Tolerance)
	case a.BoundaryRuns < 0:
		return fmt.Errorf("sweep: boundary runs must not be negative, got %d", a.BoundaryRuns)
	}
	return nil
}

// search drives run (which runs one number of users, again for a
// replicate, and says whether that number passes on every run so far)
// through the doubling and the bisection; replicate then runs the
// boundary points.
func (a *AutoUsers) search(run func(users int) (bool, error)) error {
	a.Doubled, a.Bisected, a.Replicated = []int{}, []int{}, []int{}
	lo, hi, err := bracketSearch[int]{
		start:   a.StartUsers,
		up:      func(u int) (int, bool) { return min(u*2, a.MaxUsers), u < a.MaxUsers },
		down:    func(u int) (int, bool) { return max(u/2, 1), u > 1 },
		mid:     func(lo, hi int) (int, bool) { return (lo + hi) / 2, true },
		wide:    func(lo, hi int) bool { return hi-lo > 1 && float64(hi-lo) > a.Tolerance*float64(lo) },
		maxRuns: autoUsersMaxRuns,
	}.run(run, &a.Doubled, &a.Bisected)
	if err != nil {
		return err
	}
	a.Bracket = [2]*int{lo, hi}
	return nil
}

// runUserSweep is RunSweep for a user search: cfg's closed loop at every
// number of users the search tries, each run into "users-<n>" (then
// "users-<n>-run-<k>" for a boundary replicate).
func runUserSweep(ctx context.Context, cfg servebench.RunConfig, plan Plan) (result *Sweep, err error) {
	a := plan.Users
	if cfg.ClosedLoop == nil {
		return nil, fmt.Errorf("sweep: a user search needs a closed loop (its think time); the users are searched")
	}
	if err := a.Check(); err != nil {
		return nil, err
	}
	if cfg.Shard != nil || !cfg.StartAt.IsZero() {
		return nil, fmt.Errorf("sweep: a sweep runs its points one after another; shard each point's run instead")
	}
	loaded, err := loadAdaptersOnce(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer unloadAdaptersAfter(ctx, cfg, loaded, &err)
	dir, err := servebench.CreateRunDir(cfg.OutputDir)
	if err != nil {
		return nil, err
	}
	base := cfg.ClosedLoop
	sw := &Sweep{Rule: plan.Rule, AutoUsers: a}
	runs := map[int]int{}
	runUsers := func(users int) (bool, error) {
		k := runs[users] + 1
		runs[users] = k
		point := cfg
		point.ClosedLoop, point.Schedule, point.RunID = &schedule.ClosedLoop{Users: users, ThinkTime: base.ThinkTime}, nil, ""
		point.OutputDir = pointDir(dir, "users-"+strconv.Itoa(users), k-1, false)
		res, err := servebench.Run(ctx, point)
		if res != nil && res.Report != nil {
			sw.Points = append(sw.Points, Point{Users: users, Repeat: k, RunDir: point.OutputDir, Report: res.Report,
				Interrupted: err != nil && ctx.Err() != nil})
		}
		if err != nil {
			return false, fmt.Errorf("sweep: %d users: %w", users, err)
		}
		return UserVerdicts(SelectConcurrency(sw.Points, plan.Rule).Verdicts)[users] == VerdictPass, nil
	}
	err = a.search(runUsers)
	if err == nil {
		err = replicateBoundary(sw, plan.Rule, a.BoundaryRuns, func(level float64) error {
			a.Replicated = append(a.Replicated, int(level))
			_, err := runUsers(int(level))
			return err
		})
	}
	finishSweep(sw)
	return sw, err
}

// replicateBoundary runs the bracket's ends again, at most budget more
// times each, until the pooled attainment separates them at the rule's
// confidence. The ends are taken afresh after every run, since a
// replicate that fails moves them. A search without both ends (nothing
// failed, or nothing passed) has no boundary to replicate.
func replicateBoundary(sw *Sweep, rule Rule, budget int, again func(level float64) error) error {
	rule = rule.withDefaults()
	extra := map[float64]int{}
	for range 2 * budget {
		b := BracketOf(sw.Points, rule)
		if b.Low == nil || b.High == nil {
			return nil
		}
		var next *float64
		switch {
		case b.Low != nil && !reached(b.LowConfidence, rule.Confidence) && extra[*b.Low] < budget:
			next = b.Low
		case b.High != nil && !reached(b.HighConfidence, rule.Confidence) && extra[*b.High] < budget:
			next = b.High
		}
		if next == nil {
			return nil
		}
		extra[*next]++
		if err := again(*next); err != nil {
			return err
		}
	}
	return nil
}

// finishSweep fills a sweep's selections and bracket from its points.
func finishSweep(sw *Sweep) {
	if isUserSearch(sw.Points) {
		sel := SelectConcurrency(sw.Points, sw.Rule)
		sw.Concurrency = &sel
	} else {
		sw.Selection = Select(sw.Points, sw.Rule)
	}
	b := BracketOf(sw.Points, sw.Rule)
	sw.Capacity = &b
}
