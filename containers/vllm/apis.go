package vllm

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints vLLM serves, as servebench names them. Its /v1/rerank and /v1/score need a pooling model (--runner pooling), /v1/embeddings an embedding model; its /rerank takes the Jina shape, not TEI's texts; /v1/messages is its Anthropic Messages API.
func APIs() []record.Endpoint {
	return []record.Endpoint{record.EndpointCompletions, record.EndpointChat, record.EndpointResponses, record.EndpointMessages,
		record.EndpointEmbeddings,
		record.EndpointRerank, record.EndpointPairScore}
}
