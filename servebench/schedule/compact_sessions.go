package schedule

// SessionOf is the index of the first turn of entry i's conversation; -1
// when the schedule has no conversation. A conversation's entries are
// contiguous in the schedule (an arrival unit is written whole, in order),
// so the first turn is turn-1 entries back. (Turns past 65535 share the
// last number, so a longer conversation is split there.)
func (c *Compact) SessionOf(i int) int {
	if c.turns == nil {
		return -1
	}
	return i - int(c.turns[i]) + 1
}

// SessionLength counts the entries of the conversation whose first turn
// is entry first.
func (c *Compact) SessionLength(first int) int {
	n := 1
	for j := first + 1; j < len(c.turns) && c.turns[j] == c.turns[j-1]+1; j++ {
		n++
	}
	return n
}
