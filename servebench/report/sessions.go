package report

// Sessions judges a run's conversations whole: a session is one
// conversation, and it qualifies when every one of its turns qualifies.
// Present when the workload has conversations.
type Sessions struct {
	// Offered counts the sessions whose first turn was offered.
	Offered int `json:"offered"`
	// Completed counts the offered sessions whose every turn was sent and
	// ended (whatever its status).
	Completed int `json:"completed"`
	// Truncated counts the offered sessions with a turn not sent because a
	// closed loop's deadline came (record.ReasonSessionTruncated). They
	// are counted apart and left out of Attainment's denominator; the
	// requests they completed still count in the request attainment.
	Truncated int `json:"truncated"`
	// Qualified counts the sessions whose every turn qualified.
	Qualified int `json:"qualified"`
	// Attainment is Qualified / (Offered - Truncated); nil when every
	// offered session was truncated.
	Attainment *float64 `json:"attainment"`
	// WilsonLower is the one-sided Wilson lower bound of Attainment at the
	// report's WilsonConfidence; nil with Attainment.
	WilsonLower *float64 `json:"wilson_lower"`
}

// Judged is the session attainment's denominator: the offered sessions
// that were not truncated.
func (s *Sessions) Judged() int { return s.Offered - s.Truncated }
