package ollama

import "github.com/servebench/servebench/servebench/openai"

// APIs lists the endpoints Ollama (0.17.4) serves, as servebench names them. It routes /v1/responses (stateless) and /v1/embeddings, and no rerank or score.
func APIs() []openai.Endpoint {
	return []openai.Endpoint{openai.EndpointCompletions, openai.EndpointChat, openai.EndpointResponses, openai.EndpointEmbeddings}
}
