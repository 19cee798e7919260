package llamacpp

import "github.com/servebench/servebench/servebench/openai"

// APIs lists the endpoints llama.cpp's server serves, as servebench names them. Its /rerank takes documents and top_n as well as TEI's texts; embeddings and rerank need the matching server flags.
func APIs() []openai.Endpoint {
	return []openai.Endpoint{openai.EndpointCompletions, openai.EndpointChat, openai.EndpointResponses, openai.EndpointEmbeddings,
		openai.EndpointRerank, openai.EndpointRerankTEI}
}
