package servebench

import (
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// Client is a Sender.
var _ record.Sender = (*openai.Client)(nil)

// sender is the Sender a run uses: cfg.Sender when set, else cfg.Client.
func (cfg *RunConfig) sender() record.Sender {
	if cfg.Sender != nil {
		return cfg.Sender
	}
	return cfg.Client
}
