package capacity

import (
	"math"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// sessionsReport is a closed-loop report of 30 requests, 29 qualified,
// whose sessions qualified of offered did.
func sessionsReport(qualified, offered int, powerW ...float64) *report.Report {
	r := usersReport(30, 29, 0)
	r.Sessions = &report.Sessions{Offered: offered, Completed: offered, Qualified: qualified, Attainment: new(float64(qualified) / float64(offered))}
	if len(powerW) > 0 {
		g := &report.GPUTelemetry{Status: report.GPUTelemetrySampled}
		for i, w := range powerW {
			g.GPUs = append(g.GPUs, report.GPUStats{Index: i, PowerW: report.GPUStat{Mean: new(w)}})
		}
		r.GPUTelemetry = g
	}
	return r
}

// A user search over sessions judges the session attainment, not the
// requests': at 4 agents 29 of 30 requests qualified (96.7 %, above 90 %)
// but 6 of 10 sessions (60 %), so 4 fails. The bracket is in agents,
// pools the sessions at its ends, and states 2 agents per GPU and per kW
// from the two GPUs' mean power at 2 agents, 300 W + 200 W = 0.5 kW:
// 2 / 2 = 1 agent per GPU, 2 / 0.5 = 4 agents per kW.
func TestAgentSearchJudgesSessions(t *testing.T) {
	rule := Rule{MinAttainment: 0.9}
	points := []Point{
		{Users: 1, Report: sessionsReport(10, 10)},
		{Users: 2, Report: sessionsReport(20, 20, 300, 200)},
		{Users: 4, Report: sessionsReport(6, 10, 350, 250)},
	}
	sel := SelectConcurrency(points, rule)
	if sel.Users == nil || *sel.Users != 2 || sel.FailingNeighborUsers == nil || *sel.FailingNeighborUsers != 4 {
		t.Fatalf("selection %+v", sel)
	}
	v := sel.Verdicts[2]
	if v.Judged != "session_attainment" || *v.Attainment != 0.6 || v.Verdict != VerdictFail ||
		len(v.Reasons) != 1 || v.Reasons[0] != "session attainment 0.600 (6 of 10 sessions qualified) below 0.900" {
		t.Fatalf("4 agents: %+v", v)
	}
	b := BracketOf(points, rule)
	if b.Unit != UnitAgents || *b.Low != 2 || *b.High != 4 || b.LowQualified != 20 || b.LowOffered != 20 || b.HighQualified != 6 || b.HighOffered != 10 {
		t.Fatalf("bracket %+v", b)
	}
	if b.AgentsPerGPU == nil || *b.AgentsPerGPU != 1 || b.AgentsPerKW == nil || math.Abs(*b.AgentsPerKW-4) > 1e-12 {
		t.Fatalf("agents per GPU %v, per kW %v; want 1 and 4", b.AgentsPerGPU, b.AgentsPerKW)
	}
	// Low's confidence Φ((1 − 0.9)/√(0.9 × 0.1 / 20)) = Φ(1.491) = 93.2 %;
	// High's 1 − Φ((0.6 − 0.9)/√(0.9 × 0.1 / 10)) = 1 − Φ(−3.162) = 99.9 %.
	if got := b.String(); got != "agent capacity between 2 and 4 agents; confidence in the bracket 93.2% (limited by 2 agents, not shown to pass)" {
		t.Fatalf("answer %q", got)
	}
	// Without telemetry at the low end there is no per-GPU figure.
	points[1].Report.GPUTelemetry = nil
	if b := BracketOf(points, rule); b.AgentsPerGPU != nil || b.AgentsPerKW != nil {
		t.Fatalf("per GPU %v, per kW %v without telemetry", b.AgentsPerGPU, b.AgentsPerKW)
	}
	// A user search without sessions is still one of users.
	plain := []Point{{Users: 1, Report: usersReport(10, 10, 0)}}
	if b := BracketOf(plain, rule); b.Unit != UnitUsers {
		t.Fatalf("unit %q", b.Unit)
	}
}
