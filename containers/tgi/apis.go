package tgi

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints TGI serves, as servebench names them. Its OpenAI-compatible routes are completions and chat only: it has no Responses route, and embeddings and rerank belong to TEI, another server.
func APIs() []record.Endpoint {
	return []record.Endpoint{record.EndpointCompletions, record.EndpointChat}
}
