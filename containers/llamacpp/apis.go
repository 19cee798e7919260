package llamacpp

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints llama.cpp's server serves, as servebench names them. Its /rerank takes documents and top_n as well as TEI's texts; embeddings and rerank need the matching server flags; /v1/messages is its Anthropic Messages API.
func APIs() []record.Endpoint {
	return []record.Endpoint{record.EndpointCompletions, record.EndpointChat, record.EndpointResponses, record.EndpointMessages,
		record.EndpointEmbeddings,
		record.EndpointRerank, record.EndpointRerankTEI}
}
