package report

// ShedOrderWindowMS is the length of a shed-order window: the run clock
// cut into 1 s buckets from its start, each request in the bucket of its
// sent time.
const ShedOrderWindowMS = 1000

// ShedOrder checks that sheddable traffic was shed first: that no request
// of a critical objective was rejected (HTTP 429 or 503, or an admission
// error event) in a window in which a request of a sheddable objective was
// admitted. A request's objective is the value of the objective header it
// was sent with; critical are the declared values, sheddable any other
// value, and a request without one is neither.
type ShedOrder struct {
	// Critical lists the critical objective values.
	Critical []string `json:"critical"`
	// WindowMS is ShedOrderWindowMS.
	WindowMS float64 `json:"window_ms"`
	// Windows counts the windows that held both a critical and a
	// sheddable request sent; Violations those of them in which a
	// critical request was rejected while a sheddable one was admitted
	// (sent and not rejected).
	Windows    int `json:"windows"`
	Violations int `json:"violations"`
	// FirstViolationMS is the start of the first violating window; nil
	// when none.
	FirstViolationMS *float64 `json:"first_violation_ms,omitempty"`
	// CriticalRejected and SheddableRejected count the rejected requests
	// of each kind over the run; CriticalSent and SheddableSent the sent.
	CriticalSent      int `json:"critical_sent"`
	CriticalRejected  int `json:"critical_rejected"`
	SheddableSent     int `json:"sheddable_sent"`
	SheddableRejected int `json:"sheddable_rejected"`
}
