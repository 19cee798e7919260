package sglang

import "github.com/servebench/servebench/servebench/openai"

// APIs lists the endpoints SGLang serves, as servebench names them. Embeddings, rerank and score need a model that serves them.
func APIs() []openai.Endpoint {
	return []openai.Endpoint{openai.EndpointCompletions, openai.EndpointChat, openai.EndpointResponses, openai.EndpointEmbeddings,
		openai.EndpointRerank, openai.EndpointPairScore}
}
