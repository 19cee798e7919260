package openai

import (
	"fmt"
	"slices"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// finish completes the record once the exchange has ended: d and l, the
// token counts, the success or empty_output status, the kept text, and the
// API key's redaction.
func (x *exchange) finish() {
	out := x.out
	if x.wd != nil {
		if s := x.wd.sent.Load(); s != 0 {
			out.SentMS = new(x.ms(x.begin.Add(time.Duration(s - 1))))
		}
	}
	if n := len(out.ContentMS); n > 0 {
		out.LastContentMS = new(out.ContentMS[n-1])
	}
	x.countTokens()
	if x.settled && out.Status == "" {
		x.proto.settle(x)
	}
	if x.keepText {
		out.Text = new(x.text.String())
		if len(x.tools) > 0 {
			slices.SortStableFunc(x.tools, func(a, b *toolAccum) int { return a.index - b.index })
			out.ToolCalls = make([]record.ToolCall, len(x.tools))
			for i, a := range x.tools {
				out.ToolCalls[i] = record.ToolCall{Name: a.name.String(), Arguments: a.arg.String()}
			}
		}
	}
	redactOutcome(out, x.c, x.req)
}

// countTokens fills the output, prompt, cached and reasoning token counts and the
// per-event token counts, from the best source available.
func (x *exchange) countTokens() {
	out := x.out
	usage, present := x.finalUsage, x.hasFinalUsage
	if !present {
		usage, present = x.lastUsage, x.hasLastUsage
	}
	if present {
		out.PromptTokens = usage.PromptTokens.ptrOrNil()
		out.CachedTokens = usage.PromptDetails.CachedTokens.ptrOrNil()
		out.ImageTokens = usage.PromptDetails.ImageTokens.ptrOrNil()
		out.AudioTokens = usage.PromptDetails.AudioTokens.ptrOrNil()
		out.ReasoningTokens = usage.Details.ReasoningTokens.ptrOrNil()
		if usage.CompletionTokens.ok {
			out.OutputTokens = new(usage.CompletionTokens.v)
			out.TokenCountSource = new(record.TokensFromUsage)
		}
	}
	if out.OutputTokens == nil && x.logprobsSeen && !x.textWithoutLogprobs && x.logprobTotal > 0 {
		out.OutputTokens = new(x.logprobTotal)
		out.TokenCountSource = new(record.TokensFromLogprobs)
	}
	if out.OutputTokens == nil && x.c.EstimateTokens && x.textEvents > 0 {
		out.OutputTokens = new(max(x.textEvents, (x.textBytes+3)/4))
		out.TokenCountSource = new(record.TokensEstimated)
	}
	if len(out.ContentMS) > 0 && !x.contentWithoutLogprobs && len(x.eventTokens) == len(out.ContentMS) {
		out.EventTokens = x.eventTokens
	}
}

// settleText decides the status of a text-generating request whose
// protocol ended normally: a failed finish_reason is stream_error, visible
// text or a tool call is success, and nothing visible is empty_output.
func settleText(x *exchange) {
	out := x.out
	switch {
	case failedFinish(out.FinishReason):
		out.Status = record.StatusStreamError
		out.Error = fmt.Sprintf("the server ended the request with finish_reason %q", out.FinishReason)
	case x.visible:
		out.Status = record.StatusSuccess
	default:
		out.Status = record.StatusEmptyOutput
		out.Error = "the response carried no visible text and no tool call"
	}
}

// failedFinish reports whether a finish_reason says that the server gave
// up on the request rather than completed it: "abort" (SGLang ends an
// aborted stream with it and still sends data: [DONE]; vLLM names aborted
// requests so too) or "error" (vLLM's name for a failed generation).
func failedFinish(reason string) bool {
	return reason == "abort" || reason == "error"
}
