package servebench

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// conversation is what one arrival unit's turns carry from one to the
// next while it is sent: the engine's answers to its earlier turns (engine
// history only) and the first turn that did not succeed. It lives only as
// long as the unit is being sent.
type conversation struct {
	engine  bool
	answers []string
	// failedID and failedStatus name the earlier turn that failed; "" while
	// none has.
	failedID     string
	failedStatus record.Status
}

// request is the request to send for a turn of the conversation, the
// workload's row req: under engine history, a copy whose assistant
// messages carry the answers so far, in order, and which asks for its own
// answer's text when a later turn will carry it. The row itself is never
// changed. For the last turn (later false) the conversation lets go of
// its answers: only the request sent still holds them.
func (c *conversation) request(req *record.Request, later bool) *record.Request {
	if !c.engine || (len(c.answers) == 0 && !later) {
		return req
	}
	sent := *req
	sent.KeepText = later
	if len(c.answers) == 0 {
		return &sent
	}
	answers := c.answers
	if !later {
		c.answers = nil
	}
	sent.Messages = make([]record.Message, len(req.Messages))
	copy(sent.Messages, req.Messages)
	k := 0
	for i := range sent.Messages {
		if sent.Messages[i].Role != "assistant" {
			continue
		}
		if a, ok := answerFor(req.AnswerTurns, answers, k); ok {
			sent.Messages[i].SetText(a)
		}
		k++
	}
	return &sent
}

// answerFor is the answer the k-th assistant message stands for: that of
// turn turns[k] when the row names its turns, else of the k-th turn; false
// when that turn's answer is not among answers.
func answerFor(turns []int, answers []string, k int) (string, bool) {
	j := k
	if turns != nil {
		if k >= len(turns) {
			return "", false
		}
		j = turns[k] - 1
	}
	if j < 0 || j >= len(answers) {
		return "", false
	}
	return answers[j], true
}

// ended takes in a turn's outcome: a failure stops the conversation, and
// under engine history the answer is kept for the later turns when asked
// for. The answer is taken out of the record unless keep says the record
// should hold it (the client keeps every text, or the row is judged).
func (c *conversation) ended(id string, asked bool, keep bool, out *record.Outcome) {
	if out.Status != record.StatusSuccess {
		if c.failedID == "" {
			c.failedID, c.failedStatus = id, out.Status
		}
		return
	}
	if !asked {
		return
	}
	c.answers = append(c.answers, deref(out.Text))
	if !keep {
		out.Text, out.ToolCalls = nil, nil
	}
}

// stopped is the reason a later turn is not sent: its conversation's
// earlier turn failed. "" while none has.
func (c *conversation) stopped() string {
	if c.failedID == "" {
		return ""
	}
	return fmt.Sprintf("not sent: an earlier turn of its conversation (%s) ended %s, so the conversation did not go on", c.failedID, c.failedStatus)
}

// engineHistory says whether a run sends engine history.
func (cfg *RunConfig) engineHistory() bool {
	return cfg.TurnHistory.OrDefault() == schedule.TurnHistoryEngine
}

// keepsText says whether the run's records hold every response's text
// anyway (the client was asked to keep it).
func (cfg *RunConfig) keepsText() bool {
	return cfg.Sender == nil && cfg.Client != nil && cfg.Client.KeepText
}

// checkHistory refuses an unknown history mode and, under engine history,
// a conversation turn with more assistant messages than earlier turns.
func (cfg *RunConfig) checkHistory() error {
	if !cfg.TurnHistory.Valid() {
		return fmt.Errorf("run: history: want engine or workload, got %q", cfg.TurnHistory)
	}
	if cfg.engineHistory() && cfg.Workload != nil {
		if err := cfg.Workload.CheckEngineHistory(); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	return nil
}
