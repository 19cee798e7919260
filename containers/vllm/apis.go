package vllm

import "github.com/servebench/servebench/servebench/openai"

// APIs lists the endpoints vLLM serves, as servebench names them. Its /v1/rerank and /v1/score need a pooling model (--runner pooling), /v1/embeddings an embedding model; its /rerank takes the Jina shape, not TEI's texts.
func APIs() []openai.Endpoint {
	return []openai.Endpoint{openai.EndpointCompletions, openai.EndpointChat, openai.EndpointResponses, openai.EndpointEmbeddings,
		openai.EndpointRerank, openai.EndpointPairScore}
}
