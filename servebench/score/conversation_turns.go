package score

import (
	"strconv"

	"github.com/servebench/servebench/servebench/schedule"
)

// entryTurns holds each schedule entry's place in its conversation: 1 for
// an entry that depends on none, one more than its previous turn's
// otherwise. nil when no entry depends on another (no conversation).
type entryTurns []int

// conversationTurns numbers the turns of the schedule's conversations.
func conversationTurns(s *schedule.Schedule) entryTurns {
	var turns entryTurns
	index := map[string]int{}
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.DependsOn == "" {
			continue
		}
		if turns == nil {
			turns = make(entryTurns, len(s.Entries))
			for j := range s.Entries {
				index[s.Entries[j].ID] = j
			}
		}
		if prev, ok := index[e.DependsOn]; ok && prev < i {
			turns[i] = max(turns[prev], 1) + 1
		}
	}
	return turns
}

// of is entry i's turn as the breakdown names it; "" when the schedule has
// no conversation.
func (t entryTurns) of(i int) string {
	if t == nil {
		return ""
	}
	return strconv.Itoa(max(t[i], 1))
}

// sessionOf is the index of the first turn of entry i's conversation; -1
// when the schedule has no conversation. A conversation's entries are
// contiguous in the schedule, its first turn turn-1 entries back.
func (t entryTurns) sessionOf(i int) int {
	if t == nil {
		return -1
	}
	return i - max(t[i], 1) + 1
}

// sessionLength counts the entries of the conversation whose first turn is
// entry first.
func (t entryTurns) sessionLength(first int) int {
	n := 1
	for j := first + 1; j < len(t) && t[j] == max(t[j-1], 1)+1; j++ {
		n++
	}
	return n
}
