package score

import "github.com/servebench/servebench/servebench/record"

// scoreRecord is one offered request as the scoring core sees it, whichever
// input it came from: the runner's outcome records or the normalized token
// events. Every time is in milliseconds on the run's clock and has been
// checked (finite, non-negative, ordered) before it gets here.
type scoreRecord struct {
	id, class string
	// backend is the backend that served the request, when recorded.
	backend string
	// adapter is the LoRA adapter the request was sent to, when the run
	// had an adapter mix.
	adapter string
	// tenant and objective are the values of the client's tenant and
	// objective headers the request was sent with, when recorded.
	tenant, objective string
	// modality is what the request sent besides text ("image", "audio",
	// "image+audio"); empty for a text-only request.
	modality string
	// turn is the request's place in its conversation ("1", "2", …);
	// empty when the schedule has no conversation.
	turn   string
	status record.Status
	// scheduled is a; sent (d) and slot (q) are nil when they did not
	// happen.
	scheduled  float64
	sent, slot *float64
	// firstSent is the first attempt's d when the request was retried: the
	// generator's punctuality is judged on it. nil means sent.
	firstSent *float64
	// terminal is e; hasTerminal is false only for a scheduled request
	// with no record at all.
	terminal    float64
	hasTerminal bool
	// content holds the time of every content event, in order.
	content []float64
	// eventTokens gives the tokens in each content event where proven;
	// nil otherwise. tokenLevel is true when every event is proven to hold
	// exactly one token and their number equals outputTokens.
	eventTokens []int
	tokenLevel  bool
	// outputTokens is n; nil when unknown.
	outputTokens *int
	// items counts the inputs or documents of an API without a first
	// token; inputTokens is the server's prompt token count, and
	// cachedTokens how many of them it served from its prefix cache. Each
	// is nil when not reported.
	items, inputTokens, cachedTokens *int
	// reusableTokens is the row's declared reusable_prompt_tokens; nil
	// when the row declares none.
	reusableTokens *int
	// quality is the judgment; qualityEvidence explains a failure.
	quality         qualityJudgment
	qualityEvidence string
	// stopped marks a later turn not sent because an earlier turn of its
	// conversation did not succeed (record.ReasonConversationStopped).
	stopped bool
	// truncated marks a turn not sent because a closed loop's deadline
	// came while its session ran (record.ReasonSessionTruncated).
	truncated bool
	// outsideWindow marks a truncated turn outside the window that the
	// streamed scorer hands over for its session alone: not offered.
	outsideWindow bool
	// session is the schedule index of the first turn of the request's
	// conversation; -1 when it has none.
	session int
	// errMsg is the failure message of an unsuccessful request.
	errMsg string
}

// qualityJudgment is a request's quality verdict.
type qualityJudgment int8

const (
	qualityUnscored qualityJudgment = iota
	qualityPass
	qualityFail
)

// String is the word RequestScore.Quality uses.
func (q qualityJudgment) String() string {
	switch q {
	case qualityPass:
		return "pass"
	case qualityFail:
		return "fail"
	}
	return "unscored"
}
