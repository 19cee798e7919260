// Package openai is the protocol stage of servebench: a streaming client for
// the OpenAI-compatible APIs the engines serve (completions, chat, the
// Responses API, embeddings, rerank and pair scoring), with its transport,
// the preflight that checks an engine before any load, and the redaction
// of its API key, base URL credentials and header values from what the
// engine sends back. The API catalog it implements (Endpoint, APIOf) is in
// package record.
//
// Entry points:
//
//	NewClient, Client.Do              send one record.Request and fill its record.Outcome (a record.Sender)
//	CheckRow, CheckWorkload           refuse rows an endpoint cannot send (the APIs themselves: record.APIOf)
//	Preflight, CheckServedModel       check the base URL and the served model before a run
//	LengthControl, LengthControlFor   how an engine is made to produce exactly max_tokens
//	ValidateBaseURL, ValidateHeader   refuse bad input before sending (ValidateExtraHeader: --header)
//
// Client.Do stamps the request clocks (sent, first and last content,
// terminal) on the caller's monotonic clock and never returns before the
// outcome holds a terminal status. The SSE framing itself is in package
// sse.
package openai
