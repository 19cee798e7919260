package main

import (
	"bytes"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/servebench"
)

// demoWorkload is the workload the demo replays.
func demoWorkload() (*servebench.Workload, error) {
	g := fixtures.DefaultMixed(7)
	g.Requests = 300
	g.Endpoint = servebench.EndpointChat
	var buf bytes.Buffer
	if _, err := fixtures.Generate(&buf, g); err != nil {
		return nil, err
	}
	return servebench.ParseWorkload("mixed-demo.jsonl", buf.Bytes())
}
