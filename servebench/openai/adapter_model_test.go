package openai_test

import (
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// TestAdapterIsSentAsTheModel sends rows with an adapter to a real HTTP
// server and reads the model each body carried: the adapter's name by
// default, BASE:ADAPTER in SGLang's form, and the client's model for
// "base" and for a row without an adapter.
func TestAdapterIsSentAsTheModel(t *testing.T) {
	srv := ssetest.New(t, okStream)
	for _, tc := range []struct {
		form    openai.AdapterForm
		adapter string
		want    string
	}{
		{openai.AdapterByName, "sql", `{"model":"sql","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
		{openai.AdapterByName, "base", `{"model":"llama","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
		{openai.AdapterByName, "", `{"model":"llama","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
		{openai.AdapterBaseColon, "sql", `{"model":"llama:sql","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
		{openai.AdapterBaseColon, "base", `{"model":"llama","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
	} {
		c := openai.Client{Model: "llama", Endpoint: record.EndpointCompletions, AdapterForm: tc.form}
		row := record.Request{ID: "r", Prompt: "p", Adapter: tc.adapter}
		want := tc.want
		out := sendRow(t, srv, &c, &row)
		wantStatus(t, out, record.StatusSuccess)
		if got := string(srv.LastBody()); got != want {
			t.Errorf("form %q adapter %q: body\n got %s\nwant %s", tc.form, tc.adapter, got, want)
		}
	}
}
