package servebench_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// idPrefixer is a Sender that wraps the OpenAI client: here it only
// prefixes each attempt's wire ID, where a real wrapper might add tracing.
type idPrefixer struct{ inner *openai.Client }

func (s idPrefixer) Do(ctx context.Context, start time.Time, req *record.Request, id string, out *record.Outcome) {
	s.inner.Do(ctx, start, req, "example/"+id, out)
}

// A Sender is the seam between the measurement core and a wire protocol.
func ExampleSender() {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer engine.Close()
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","prompt":"x","max_tokens":2}`))
	dir, _ := os.MkdirTemp("", "example-sender-")
	defer os.RemoveAll(dir)

	client := servebench.NewClient(engine.BaseURL(), cfg.Model)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: servebench.Constant(50), Count: 3, OutputDir: dir, Sender: idPrefixer{client},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("offered %d, successes %d\n", res.Report.Offered, res.Report.ProtocolSuccesses)
	// Output:
	// offered 3, successes 3
}
