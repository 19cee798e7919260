package openai

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// AdapterForm says how a request's LoRA adapter is named in its "model"
// field.
type AdapterForm string

const (
	// AdapterByName sends the adapter's own name as the model, as vLLM
	// serves adapters (`--lora-modules NAME=PATH`); the zero value.
	AdapterByName AdapterForm = ""
	// AdapterBaseColon sends "BASE:ADAPTER", as SGLang's OpenAI routes
	// take an adapter.
	AdapterBaseColon AdapterForm = "base:adapter"
)

// modelFor is the "model" a request is sent with: the client's Model, or
// the request's adapter in the client's AdapterForm.
func (c *Client) modelFor(req *record.Request) string {
	if req.Adapter == "" || req.Adapter == schedule.BaseAdapter {
		return c.Model
	}
	if c.AdapterForm == AdapterBaseColon {
		return c.Model + ":" + req.Adapter
	}
	return req.Adapter
}
