package ollama

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints Ollama (0.17.4) serves, as servebench names them. It routes /v1/responses (stateless) and /v1/embeddings, and no rerank or score.
func APIs() []record.Endpoint {
	return []record.Endpoint{record.EndpointCompletions, record.EndpointChat, record.EndpointResponses, record.EndpointEmbeddings}
}
