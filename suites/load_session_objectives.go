package suites

// SessionObjective bounds the session attainment: the conversations
// judged whole, a session qualifying when every one of its turns does.
type SessionObjective struct {
	// Attainment is the minimum session attainment
	// (matchers.HaveSessionAttainmentAtLeast).
	Attainment *float64
	// WilsonLower is the minimum one-sided Wilson lower bound of the
	// session attainment (matchers.HaveSessionWilsonLowerBoundAbove).
	WilsonLower *float64
}

// sessions reads `sessions: {attainment: A, wilson_lower: W}`, each a
// fraction in [0, 1]; an empty mapping is an error.
func (d *decoder) sessions(o *mapping) *SessionObjective {
	if !o.has("sessions") {
		return nil
	}
	sm := d.mapping(o.get("sessions"), d.objAt+".sessions", "attainment", "wilson_lower")
	if sm == nil {
		return nil
	}
	so := &SessionObjective{Attainment: d.fraction(sm, "attainment"), WilsonLower: d.fraction(sm, "wilson_lower")}
	if len(sm.node.Content) == 0 {
		d.errorf(o.get("sessions"), d.objAt+".sessions", "declare attainment, wilson_lower or both")
		return nil
	}
	return so
}
