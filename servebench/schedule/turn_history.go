package schedule

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
)

// TurnHistory says what the assistant messages of a conversation's later turns
// carry when they are sent. In a workload row with a conversation and a
// turn, the assistant messages stand for the answers of the conversation's
// earlier turns.
type TurnHistory string

// The turn history modes.
const (
	// TurnHistoryEngine replaces them, in order, by the engine's actual
	// answers in the same run: the k-th assistant message by the answer of
	// the conversation's k-th turn. The prompts sent then differ from run
	// to run; the schedule (times and user turns) does not. The default.
	TurnHistoryEngine TurnHistory = "engine"
	// TurnHistoryWorkload sends them as the workload file writes them.
	TurnHistoryWorkload TurnHistory = "workload"
)

// ParseTurnHistory reads a history mode: "engine" or "workload"; "" is the
// default, engine.
func ParseTurnHistory(s string) (TurnHistory, error) {
	switch TurnHistory(s) {
	case "", TurnHistoryEngine:
		return TurnHistoryEngine, nil
	case TurnHistoryWorkload:
		return TurnHistoryWorkload, nil
	}
	return "", fmt.Errorf("want engine or workload, got %q", s)
}

// OrDefault is h, or TurnHistoryEngine when h is empty.
func (h TurnHistory) OrDefault() TurnHistory {
	if h == "" {
		return TurnHistoryEngine
	}
	return h
}

// Valid says whether h is empty or one of the modes.
func (h TurnHistory) Valid() bool {
	_, err := ParseTurnHistory(string(h))
	return err == nil
}

// CheckEngineHistory checks that each later turn of a conversation has no
// more assistant messages than the conversation has earlier turns, so that
// every one of them can stand for an earlier answer. An error names the
// file, the line and the field.
func (w *Workload) CheckEngineHistory() error {
	units, err := conversationUnits(w)
	if err != nil {
		return err
	}
	for _, u := range units {
		for j, row := range u {
			r := &w.Requests[row]
			if r.Conversation == "" {
				continue
			}
			n := 0
			for _, m := range r.Messages {
				if m.Role == "assistant" {
					n++
				}
			}
			if r.AnswerTurns != nil {
				if err := checkAnswerTurns(w, r, n, j); err != nil {
					return err
				}
				continue
			}
			if n > j {
				return fmt.Errorf("%s:%d: messages: turn %d of conversation %q has %d assistant messages but %d earlier turns: with engine history each assistant message stands for an earlier turn's answer (use workload history to send them as written)",
					w.Name, r.Line, r.Turn, r.Conversation, n, j)
			}
		}
	}
	return nil
}

// checkAnswerTurns checks a row that names the turns its n assistant
// messages stand for: one turn each, every one an earlier turn of a
// conversation numbered 1, 2, … (the row is its j+1-th turn).
func checkAnswerTurns(w *Workload, r *record.Request, n, j int) error {
	if len(r.AnswerTurns) != n {
		return fmt.Errorf("%s:%d: answer_turns: %d turns named for %d assistant messages", w.Name, r.Line, len(r.AnswerTurns), n)
	}
	if r.Turn != j+1 {
		return fmt.Errorf("%s:%d: answer_turns: conversation %q must number its turns 1, 2, … to name them, but its turn %d is its turn number %d", w.Name, r.Line, r.Conversation, j+1, r.Turn)
	}
	for _, t := range r.AnswerTurns {
		if t < 1 || t >= r.Turn {
			return fmt.Errorf("%s:%d: answer_turns: turn %d is not an earlier turn of turn %d of conversation %q", w.Name, r.Line, t, r.Turn, r.Conversation)
		}
	}
	return nil
}
