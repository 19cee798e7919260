package simengine

import "github.com/servebench/servebench/servebench/record"

// APIs lists the endpoints the simulated engine serves, as servebench names them. It serves every endpoint servebench speaks.
func APIs() []record.Endpoint {
	return record.Endpoints()
}
