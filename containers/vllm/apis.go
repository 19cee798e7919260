package vllm

import "github.com/servebench/servebench/servebench"

// APIs lists the endpoints vLLM serves, as servebench names them. Its /v1/rerank and /v1/score need a pooling model (--runner pooling), /v1/embeddings an embedding model; its /rerank takes the Jina shape, not TEI's texts.
func APIs() []servebench.Endpoint {
	return []servebench.Endpoint{servebench.EndpointCompletions, servebench.EndpointChat, servebench.EndpointResponses, servebench.EndpointEmbeddings,
		servebench.EndpointRerank, servebench.EndpointPairScore}
}
