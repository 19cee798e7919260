package schedule

// ArrivalSpec declares how a run's arrivals are generated. It is recorded in
// every schedule and report, so a run can be realized again.
type ArrivalSpec struct {
	// Process is the arrival process (see Processes).
	Process Process `json:"process"`
	// RateRPS is the mean offered rate for the open-loop processes.
	RateRPS float64 `json:"rate_rps,omitempty"`
	// Burstiness is the gamma shape k (CV = 1/sqrt(k)).
	Burstiness float64 `json:"burstiness,omitempty"`
	// BurstSize is b for burst groups (b requests every b/rate).
	BurstSize int `json:"burst_size,omitempty"`
	// TimeScale multiplies stored timestamps in replay (0.5 replays twice
	// as fast, and the duration halves with it).
	TimeScale float64 `json:"time_scale,omitempty"`
	// Users and ThinkTimeMS describe a closed loop.
	Users       int     `json:"users,omitempty"`
	ThinkTimeMS float64 `json:"think_time_ms,omitempty"`
	// Phases, when set, make the arrival a plan of named phases run one
	// after another, each the process at its own rate (WithPhases);
	// RateRPS is then the plan's mean rate.
	Phases []Phase `json:"phases,omitempty"`
	// Seed seeds the sampled processes.
	Seed int64 `json:"seed"`
}
