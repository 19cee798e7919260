package containers

import (
	"context"
	"io"
	"reflect"
	"testing"
	"time"
)

// fixedEngine is an Engine with fixed answers.
type fixedEngine struct {
	id   Identity
	cold time.Duration
}

func (e fixedEngine) Kind() string                                { return e.id.Kind }
func (e fixedEngine) BaseURL() string                             { return "http://127.0.0.1:1" }
func (e fixedEngine) Model() string                               { return e.id.Model }
func (e fixedEngine) MetricsURL() string                          { return "" }
func (e fixedEngine) Logs(context.Context) (io.ReadCloser, error) { return nil, nil }
func (e fixedEngine) ColdStart() time.Duration                    { return e.cold }
func (e fixedEngine) Command() []string                           { return nil }
func (e fixedEngine) Identity() Identity                          { return e.id }
func (e fixedEngine) Shutdown(context.Context) error              { return nil }

func TestEngineInfo(t *testing.T) {
	e := fixedEngine{
		id: Identity{Kind: "vllm", Image: "vllm/vllm-openai:v0.11.0", ImageID: "sha256:ab",
			Model: "m", Args: []string{"--model", "m"}, Version: "0.11.0"},
		cold: 1234567 * time.Microsecond,
	}
	info := EngineInfo(e)
	if info.Kind != "vllm" || info.Image != "vllm/vllm-openai:v0.11.0" || info.ImageID != "sha256:ab" ||
		info.Model != "m" || info.Version != "0.11.0" || !reflect.DeepEqual(info.Args, []string{"--model", "m"}) {
		t.Errorf("info %+v", info)
	}
	if info.ColdStartMS == nil || *info.ColdStartMS != 1234.567 {
		t.Errorf("cold start %v, want 1234.567 ms", info.ColdStartMS)
	}
	e.cold = 0
	if EngineInfo(e).ColdStartMS != nil {
		t.Error("an unmeasured cold start must be nil, not zero")
	}
	if EngineInfo(nil) != nil {
		t.Error("nil engine")
	}
}
