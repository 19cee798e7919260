package enginemetrics_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

	"github.com/servebench/servebench/servebench/enginemetrics"
)

// Two scrapes bracket the measurement; the report keeps each counter's
// increase and each gauge's final value.
func ExampleBetween() {
	var scrapes atomic.Int64
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		k := scrapes.Add(1)
		fmt.Fprintf(w, "# TYPE vllm:request_success_total counter\nvllm:request_success_total{model_name=\"m\"} %d\n", 100+40*(k-1))
		fmt.Fprintf(w, "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{model_name=\"m\"} %d\n", 3*k)
	}))
	defer engine.Close()

	ctx := context.Background()
	before := enginemetrics.ScrapeOnce(ctx, engine.URL)
	// ... the measurement runs here ...
	after := enginemetrics.ScrapeOnce(ctx, engine.URL)
	em := enginemetrics.Between(engine.URL, before, after)
	fmt.Println(em.Counters[`vllm:request_success_total{model_name="m"}`], em.Gauges[`vllm:num_requests_waiting{model_name="m"}`], len(em.Errors))
	// Output:
	// 40 6 0
}
