package llamacpp

import "github.com/servebench/servebench/servebench"

// APIs lists the endpoints llama.cpp's server serves, as servebench names them. Its /rerank takes documents and top_n as well as TEI's texts; embeddings and rerank need the matching server flags.
func APIs() []servebench.Endpoint {
	return []servebench.Endpoint{servebench.EndpointCompletions, servebench.EndpointChat, servebench.EndpointResponses, servebench.EndpointEmbeddings,
		servebench.EndpointRerank, servebench.EndpointRerankTEI}
}
