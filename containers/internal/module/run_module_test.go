package module

import (
	"context"
	"errors"
	"testing"
)

func TestRunModuleStopsAtARequestError(t *testing.T) {
	wrapped := false
	c, err := RunModule(context.Background(), "vllm", Plan{}, errors.New("no model: pass vllm.WithModel"),
		func(*Base) *struct{} { wrapped = true; return &struct{}{} })
	if c != nil || wrapped || err == nil || err.Error() != "run vllm: no model: pass vllm.WithModel" {
		t.Fatalf("container %v, wrapped %v, error %v", c, wrapped, err)
	}
}
