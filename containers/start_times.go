package containers

import (
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// StartTimes are the instants of one engine start, on the clock of the
// process that started it.
type StartTimes struct {
	// Requested is when servebench asked for the engine.
	Requested time.Time
	// Pull is how long the image check and pull took before the container
	// was created; zero for a local process or an in-process engine.
	Pull time.Duration
	// Started is when the container or process started.
	Started time.Time
	// Ready is when the engine first answered its readiness probe.
	Ready time.Time
}

// StartTimer is an Engine that timed its start. The container modules,
// the local processes and the in-process simulated engine are.
type StartTimer interface {
	StartTimes() StartTimes
}

// StartTimesOf is e's start times: its own when it is a StartTimer, else
// derived from its ColdStart, ending at returned (when the start call came
// back).
func StartTimesOf(e Engine, returned time.Time) StartTimes {
	if st, ok := e.(StartTimer); ok {
		if t := st.StartTimes(); !t.Started.IsZero() && !t.Ready.IsZero() {
			return t
		}
	}
	started := returned.Add(-e.ColdStart())
	return StartTimes{Requested: started, Started: started, Ready: returned}
}

// EngineStart is the report's record of one start: the times of t from
// its start, and the first token of the first request sent after it
// became ready (firstToken; zero when none came).
func EngineStart(t StartTimes, firstToken time.Time) report.EngineStart {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	s := report.EngineStart{StartedAt: t.Started.UTC().Format(time.RFC3339Nano), StartedMS: ms(t.Started.Sub(t.Requested)), ReadyMS: new(ms(t.Ready.Sub(t.Started)))}
	if t.Pull > 0 {
		s.PullMS = new(ms(t.Pull))
	}
	if !firstToken.IsZero() {
		s.FirstTokenMS = new(ms(firstToken.Sub(t.Started)))
	}
	return s
}
