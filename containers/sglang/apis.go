package sglang

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints SGLang serves, as servebench names them. Embeddings, rerank and score need a model that serves them.
func APIs() []record.Endpoint {
	return []record.Endpoint{record.EndpointCompletions, record.EndpointChat, record.EndpointResponses, record.EndpointEmbeddings,
		record.EndpointRerank, record.EndpointPairScore}
}
