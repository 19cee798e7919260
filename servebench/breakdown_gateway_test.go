package servebench_test

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// skewedGateway is a loopback reverse proxy written for the test: it sends
// every fourth generation request to replica b and the others to a, and
// returns the replica's name in X-Served-By, as a gateway set up to echo
// its endpoint would.
func skewedGateway(t *testing.T, a, b *simengine.Server) *httptest.Server {
	t.Helper()
	proxies := map[string]*httputil.ReverseProxy{}
	for name, srv := range map[string]*simengine.Server{"replica-a": a, "replica-b": b} {
		u, err := url.Parse(srv.BaseURL())
		if err != nil {
			t.Fatal(err)
		}
		p := httputil.NewSingleHostReverseProxy(u)
		p.FlushInterval = -1 // pass SSE events on as they come
		p.ModifyResponse = func(resp *http.Response) error {
			resp.Header.Set("X-Served-By", name)
			return nil
		}
		proxies[name] = p
	}
	var n atomic.Int64
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := "replica-a"
		if r.Method == http.MethodPost && n.Add(1)%4 == 0 {
			target = "replica-b"
		}
		// A replica finishes a request whose client has already read
		// [DONE] and hung up, so its counters count every request.
		proxies[target].ServeHTTP(w, bufferedBody(t, r.WithContext(context.WithoutCancel(r.Context()))))
	}))
	t.Cleanup(gw.Close)
	return gw
}

func TestBreakdownByBackendShowsTheGatewaysSkew(t *testing.T) {
	tune := func(c *simengine.Config) { c.TimeScale = 0.1 }
	a, b := simengine.StartTest(t, tune), simengine.StartTest(t, tune)
	gw := skewedGateway(t, a, b)
	c := &openai.Client{BaseURL: gw.URL, Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
		TotalTimeout: 20e9, BackendHeader: "X-Served-By"}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"q","class":"chat","prompt":"route me","max_tokens":4,"ignore_eos":true}
`),
		Arrival: constant(t, 40), Count: 20, Client: c, OutputDir: t.TempDir(),
		EngineMetrics: servebench.EngineMetricsConfig{
			BackendURLs: []string{a.BaseURL() + "/metrics", b.BaseURL() + "/metrics"},
			Interval:    50 * time.Millisecond,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	// 20 requests, every fourth to b: 15 and 5, shares 0.75 and 0.25, Gini
	// = (2 x |15 - 5|) / (2 x 2² x 10) = 0.25.
	bd := res.Report.Breakdown["backend"]
	if bd == nil {
		t.Fatalf("no backend breakdown: %v", res.Report.Breakdown)
	}
	ra, rb := bd.Values["replica-a"], bd.Values["replica-b"]
	if ra.Offered != 15 || rb.Offered != 5 || ra.Share != 0.75 || rb.Share != 0.25 {
		t.Errorf("backend values %+v", bd.Values)
	}
	if bd.Gini == nil || math.Abs(*bd.Gini-0.25) > 1e-12 {
		t.Errorf("Gini %v, want 0.25", bd.Gini)
	}
	// Each value's latencies are over its own requests, all successful.
	if ra.TTFT.N != 15 || rb.TTFT.N != 5 {
		t.Errorf("TTFT N %d and %d, want 15 and 5 (statuses %v)", ra.TTFT.N, rb.TTFT.N, res.Report.StatusCounts)
	}
	// Every request is of one class: the same mechanism gives one value
	// and no Gini.
	if cl := res.Report.Breakdown["class"]; cl == nil || cl.Values["chat"].Offered != 20 || cl.Gini != nil {
		t.Errorf("class breakdown %+v", cl)
	}
	// Each replica's own counters and series were scraped; the skewed
	// replica-a generated more than replica-b (15 against 5 requests of 4
	// tokens).
	gen := func(i int) float64 {
		return res.Report.BackendMetrics[i].Counters[`vllm:generation_tokens_total{model_name="simengine-tiny"}`]
	}
	if gen(0) <= gen(1) || gen(1) <= 0 {
		t.Errorf("generated tokens: replica-a %v, replica-b %v", gen(0), gen(1))
	}
	for i, bm := range res.Report.BackendMetrics {
		if bm.Series == nil || len(bm.Series.Samples) == 0 || bm.Series.Samples[0].Running == nil {
			t.Errorf("replica %d: no series scraped through the measurement: %+v", i, bm.Series)
		}
		if bm.PrefixCacheHitRate != nil {
			t.Errorf("replica %d: a hit rate %v from an engine without prefix-cache counters", i, *bm.PrefixCacheHitRate)
		}
	}
	for _, o := range outcomesOf(t, res) {
		if o.Status == record.StatusSuccess && o.Backend != "replica-a" && o.Backend != "replica-b" {
			t.Fatalf("outcome %s has backend %q", o.ID, o.Backend)
		}
	}
}

// bufferedBody reads the request's body whole before it is proxied. The
// proxy flushes the engine's response headers as they come, and once a
// handler has flushed a response the server may close the request body,
// so a body still being streamed to the engine would be cut (the proxy's
// upstream read then fails with "use of closed network connection").
func bufferedBody(t *testing.T, r *http.Request) *http.Request {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Errorf("gateway: reading the request body: %v", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return r
}
