package simengine

import "github.com/servebench/servebench/servebench/openai"

// APIs lists the endpoints the simulated engine serves, as servebench names them. It serves every endpoint servebench speaks.
func APIs() []openai.Endpoint {
	return openai.Endpoints()
}
