package record

// The metric sets of the two kinds of API.
var (
	textMetrics = []Metric{MetricTTFT, MetricTTFTFromScheduled, MetricTPOT, MetricITL, MetricChunkGap,
		MetricE2E, MetricLastToken, MetricScheduleLag, MetricClientQueue}
	poolingMetrics = []Metric{MetricE2E, MetricScheduleLag, MetricClientQueue}
)

// textFailures are the failures every text-generating API can record.
var textFailures = []string{
	"http_error: a non-2xx answer other than 429/503",
	"rejected: HTTP 429/503, or an admission refusal sent as an error event before any text",
	"stream_error: a broken connection, an error event, an unreadable event, a stream that ends early or breaks its bound",
	"timeout: the first-token, idle or total deadline passed",
	"empty_output: the protocol succeeded without visible text or a tool call",
}

// poolingFailures are the failures of the APIs without a first token.
var poolingFailures = []string{
	"http_error: a non-2xx answer other than 429/503",
	"rejected: HTTP 429/503",
	"stream_error: a broken connection, an unreadable body or an error in a 2xx body",
	"timeout: the total deadline passed",
	"invalid_response: the answer contradicts the request (the wrong number or dimension of vectors, indices that do not cover the documents)",
}

// The throughput sets of the APIs.
var (
	textThroughput   = []ThroughputUnit{ThroughputRequests, ThroughputOutputTokens, ThroughputInputTokens}
	rerankThroughput = []ThroughputUnit{ThroughputRequests, ThroughputItems, ThroughputDocuments, ThroughputInputTokens}
)

// apis declares every API, in --help order.
var apis = []API{
	{
		Endpoint: EndpointCompletions, Path: "/v1/completions", Description: "OpenAI completions (a prompt string)",
		Streams: true, FirstToken: true, Metrics: textMetrics, Throughput: textThroughput,
		FailureReasons: textFailures, RowFields: []string{"prompt", "max_tokens", "ignore_eos", "expect", "prompt_tokens"},
		Generate: "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output fixed.jsonl",
	},
	{
		Endpoint: EndpointChat, Path: "/v1/chat/completions", Description: "OpenAI chat completions (messages, or a prompt sent as one user message)",
		Streams: true, FirstToken: true, Metrics: textMetrics, Throughput: textThroughput,
		FailureReasons: textFailures,
		RowFields: []string{"prompt", "messages", "max_tokens", "ignore_eos", "expect", "prompt_tokens",
			"conversation", "turn", "think_ms"},
		Generate: "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output fixed.jsonl",
	},
	{
		Endpoint: EndpointResponses, Path: "/v1/responses",
		Description: "OpenAI Responses API (typed events; prompt or messages, max_tokens sent as max_output_tokens)",
		Streams:     true, FirstToken: true, Metrics: textMetrics, Throughput: textThroughput,
		FailureReasons: append(textFailures[:len(textFailures):len(textFailures)],
			"stream_error: response.failed, an error event, response.incomplete for a reason other than max_output_tokens, or no terminal event",
			"invalid_response: events out of sequence (a sequence_number that does not follow the previous one)"),
		RowFields: []string{"prompt", "messages", "max_tokens", "expect", "prompt_tokens", "conversation", "turn", "think_ms"},
		Generate:  "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output-policy natural --output fixed.jsonl",
	},
	{
		Endpoint: EndpointMessages, Path: "/v1/messages",
		Description: "Anthropic Messages API (typed events; system messages sent as system, the key as x-api-key)",
		Streams:     true, FirstToken: true, Metrics: textMetrics, Throughput: textThroughput,
		FailureReasons: append(textFailures[:len(textFailures):len(textFailures)],
			"stream_error: an error event, or a stream that ends without message_stop"),
		RowFields: []string{"prompt", "messages", "max_tokens", "expect", "prompt_tokens", "conversation", "turn", "think_ms"},
		Generate:  "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output-policy natural --output fixed.jsonl",
	},
	{
		Endpoint: EndpointEmbeddings, Path: "/v1/embeddings", Description: "OpenAI embeddings (input: a string or a batch)",
		Metrics:        poolingMetrics,
		Throughput:     []ThroughputUnit{ThroughputRequests, ThroughputItems, ThroughputInputTokens},
		FailureReasons: poolingFailures, RowFields: []string{"input"},
		Generate: "servebench workload generate embeddings --batch-size 1 --input-tokens 128 --output embeddings.jsonl",
	},
	{
		Endpoint: EndpointRerank, Path: "/v1/rerank", Description: "rerank in the Jina/Cohere shape (query, documents, top_n)",
		Metrics: poolingMetrics, Throughput: rerankThroughput, FailureReasons: poolingFailures,
		RowFields: []string{"query", "documents", "top_n"},
		Generate:  "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl",
	},
	{
		Endpoint: EndpointRerankTEI, Path: "/rerank", Description: "rerank in TEI's shape (query, texts; a bare list answer)",
		Metrics: poolingMetrics, Throughput: rerankThroughput, FailureReasons: poolingFailures,
		RowFields: []string{"query", "documents"},
		Generate:  "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl",
	},
	{
		Endpoint: EndpointPairScore, Path: "/v1/score", Description: "vLLM's Score API (text_1 the query, text_2 the documents)",
		Metrics: poolingMetrics, Throughput: rerankThroughput, FailureReasons: poolingFailures,
		RowFields: []string{"query", "documents"},
		Generate:  "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl",
	},
}
