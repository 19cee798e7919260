package sglang

import "github.com/servebench/servebench/servebench"

// APIs lists the endpoints SGLang serves, as servebench names them. Embeddings, rerank and score need a model that serves them.
func APIs() []servebench.Endpoint {
	return []servebench.Endpoint{servebench.EndpointCompletions, servebench.EndpointChat, servebench.EndpointResponses, servebench.EndpointEmbeddings,
		servebench.EndpointRerank, servebench.EndpointPairScore}
}
