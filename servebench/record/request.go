package record

import (
	"encoding/json"
)

// Request is one row of a workload: what to send, with which output policy,
// and, for replay, when.
type Request struct {
	// ID is the row's identity; it defaults to "row-N" for line N.
	ID string `json:"id"`
	// Prompt is the text for /v1/completions. Exactly one of Prompt and
	// Messages is set.
	Prompt string `json:"prompt,omitempty"`
	// Messages is the conversation for /v1/chat/completions.
	Messages []Message `json:"messages,omitempty"`
	// MaxTokens caps the output; it is a cap, not an observed length.
	// Rows of the APIs that generate no text (embeddings, rerank,
	// pair-score) leave it out (0, not written).
	MaxTokens int `json:"max_tokens,omitempty"`
	// Class groups rows for stratified reports (e.g. "triage", "summary").
	Class string `json:"class,omitempty"`
	// IgnoreEOS asks the engine to generate exactly MaxTokens: a
	// shape-controlled stress test, not a natural response.
	IgnoreEOS bool `json:"ignore_eos,omitempty"`
	// ScheduledMS is the stored arrival time for replay.
	ScheduledMS *float64 `json:"scheduled_ms,omitempty"`
	// Extra is merged into the request body (sampling fields, tools, …).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	// Expect declares what a good response looks like; nil leaves the
	// request unscored for quality.
	Expect *Expectation `json:"expect,omitempty"`
	// Input is an embeddings row's text: one string or a batch of them.
	Input *TextInput `json:"input,omitempty"`
	// Query is a rerank or pair-score row's query.
	Query string `json:"query,omitempty"`
	// Documents are the texts a rerank or pair-score row ranks against
	// Query.
	Documents []string `json:"documents,omitempty"`
	// TopN, when set, asks a rerank endpoint for the best TopN documents
	// only.
	TopN *int `json:"top_n,omitempty"`

	// PromptTokens is the prompt length in tokens that the workload's
	// generator intended, under the tokenizer the workload names.
	PromptTokens *int `json:"prompt_tokens,omitempty"`
	// ReusablePromptTokens is how many of the prompt's leading tokens
	// (under the same tokenizer) an earlier row of the file already began
	// with: the part a prefix cache could serve when the rows are sent in
	// file order and the entries are still cached (0 for the first row of
	// a prefix group). The shared-prefix generator writes it; nil when the
	// row does not declare it. The run copies it into the outcome, and the
	// report compares it with the cached_tokens the engine reported.
	ReusablePromptTokens *int `json:"reusable_prompt_tokens,omitempty"`

	// Headers are sent with this row's request, after the client's own
	// extra headers (a row's value replaces the client's for the same
	// name). A header the client sets itself is refused when the workload
	// is read (CheckHeaders). Every value is a secret, redacted wherever a
	// server echoes it, except the values of the client's tenant and
	// objective headers, which the outcome records.
	Headers map[string]string `json:"headers,omitempty"`

	// Conversation groups the turns of one multi-turn conversation.
	Conversation string `json:"conversation,omitempty"`
	// Turn numbers the turns of a conversation from 1. Turn k > 1 is sent
	// ThinkMS after turn k-1 ended, and its Messages carry the history.
	Turn int `json:"turn,omitempty"`
	// ThinkMS is the user's think time before this turn.
	ThinkMS float64 `json:"think_ms,omitempty"`
	// AnswerTurns names, for each of the row's assistant messages in
	// order, the earlier turn of its conversation whose answer the message
	// stands for (under engine history, the answer that replaces it). Empty
	// means turns 1, 2, … in order. A subagent's turn uses it to carry its
	// parent's answer without the parent's other turns.
	AnswerTurns []int `json:"answer_turns,omitempty"`

	// Line is the 1-based line of the row in its workload file.
	Line int `json:"-"`
	// Adapter is the LoRA adapter one send of the row asks for, set by the
	// run from the schedule's entry (never read from a workload file):
	// the client sends it as the model ("" or "base": the client's own
	// model).
	Adapter string `json:"-"`
	// KeepText asks the sender to keep this send's response text in its
	// record, set by the run (never read from a workload file) for a turn
	// whose answer a later turn of its conversation carries (engine
	// history). The run takes the text out again before the record is
	// written unless the text was wanted there anyway.
	KeepText bool `json:"-"`
}
