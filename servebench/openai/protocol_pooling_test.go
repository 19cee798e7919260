package openai_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// parseRow reads one workload row the way a workload file gives it.
func parseRow(t *testing.T, line string) *record.Request {
	t.Helper()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return &w.Requests[0]
}

func TestEmbeddingsBatchIsOneRequestWithoutFirstToken(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(80*time.Millisecond, ssetest.EmbeddingsAnswer(9, 4, 4, 4)))
	c := &openai.Client{Model: "m", Endpoint: record.EndpointEmbeddings}
	row := parseRow(t, `{"id":"e1","input":["alpha","beta","gamma"]}`)
	out := sendRow(t, srv, c, row)
	wantStatus(t, out, record.StatusSuccess)
	// No first token: f and l stay null, with no content event, however
	// the client was set to stream.
	wantNil(t, "first content", out.FirstContentMS)
	wantNil(t, "output tokens", out.OutputTokens)
	if len(out.ContentMS) != 0 {
		t.Errorf("content events %v, want none", out.ContentMS)
	}
	wantInt(t, "items", out.Items, 3)
	wantInt(t, "prompt tokens", out.PromptTokens, 9)
	within(t, "E2E", out.TerminalMS-*out.SentMS, 80)
	if got := string(srv.LastBody()); got != `{"model":"m","input":["alpha","beta","gamma"],"encoding_format":"float"}` {
		t.Errorf("body %s", got)
	}
}

func TestEmbeddingsSingleInputIsSentAsAString(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(0, ssetest.EmbeddingsAnswer(2, 3)))
	c := &openai.Client{Model: "m", Endpoint: record.EndpointEmbeddings}
	out := sendRow(t, srv, c, parseRow(t, `{"input":"one text","extra":{"dimensions":3}}`))
	wantStatus(t, out, record.StatusSuccess)
	wantInt(t, "items", out.Items, 1)
	if got := string(srv.LastBody()); got != `{"model":"m","input":"one text","encoding_format":"float","dimensions":3}` {
		t.Errorf("body %s", got)
	}
}

func TestEmbeddingsShapeChecks(t *testing.T) {
	for _, tc := range []struct {
		name, answer, want string
	}{
		{"one vector short", ssetest.EmbeddingsAnswer(4, 4, 4), "2 vectors for 3 inputs"},
		{"one vector too many", ssetest.EmbeddingsAnswer(4, 4, 4, 4, 4), "4 vectors for 3 inputs"},
		{"dimensions disagree", ssetest.EmbeddingsAnswer(4, 4, 5, 4), "data[1].embedding has dimension 5, earlier vectors 4"},
		{"an empty vector", ssetest.EmbeddingsAnswer(4, 4, 0, 4), "data[1].embedding is empty"},
		{"an index twice", `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]},{"index":2,"embedding":[1]}]}`,
			"data[1].index 0 does not name one of the 3 inputs once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ssetest.New(t, ssetest.JSONAnswer(0, tc.answer))
			c := &openai.Client{Model: "m", Endpoint: record.EndpointEmbeddings}
			out := sendRow(t, srv, c, parseRow(t, `{"input":["a","b","c"]}`))
			wantStatus(t, out, record.StatusInvalidResponse)
			wantContains(t, "error", out.Error, tc.want)
			wantInt(t, "items", out.Items, 3)
		})
	}
}

// The dimension is checked across requests too: a Client that got
// 4-dimensional vectors refuses a later 8-dimensional answer.
func TestEmbeddingsDimensionIsTheSameEveryTime(t *testing.T) {
	dims := 4
	srv := ssetest.New(t, func(w *ssetest.Writer) { ssetest.JSONAnswer(0, ssetest.EmbeddingsAnswer(1, dims))(w) })
	c := &openai.Client{Model: "m", Endpoint: record.EndpointEmbeddings}
	wantStatus(t, sendRow(t, srv, c, parseRow(t, `{"input":"a"}`)), record.StatusSuccess)
	dims = 8
	out := sendRow(t, srv, c, parseRow(t, `{"input":"a"}`))
	wantStatus(t, out, record.StatusInvalidResponse)
	wantContains(t, "error", out.Error, "dimension 8, earlier vectors 4")
}

func TestEmbeddingsErrorsInA2xxBody(t *testing.T) {
	for _, tc := range []struct{ answer, want string }{
		{`{"error":{"message":"model is not an embedding model"}}`, "error in a 2xx response: model is not an embedding model"},
		{`not json`, "not a JSON embeddings answer"},
		{`{"data":[{"embedding":"abc"}]}`, "not a readable embeddings answer"},
	} {
		srv := ssetest.New(t, ssetest.JSONAnswer(0, tc.answer))
		c := &openai.Client{Model: "m", Endpoint: record.EndpointEmbeddings}
		out := sendRow(t, srv, c, parseRow(t, `{"input":"a"}`))
		wantStatus(t, out, record.StatusStreamError)
		wantContains(t, "error", out.Error, tc.want)
	}
}

func TestRerankShapes(t *testing.T) {
	row := `{"id":"r1","query":"what is a cat","documents":["a cat is an animal","a car","paris"]}`
	for _, tc := range []struct {
		endpoint     record.Endpoint
		path, answer string
		body         string
		tokens       int
	}{
		{record.EndpointRerank, "/v1/rerank",
			`{"id":"x","model":"m","usage":{"total_tokens":21},"results":[{"index":0,"relevance_score":0.9,"document":{"text":"a cat is an animal"}},{"index":2,"relevance_score":0.1},{"index":1,"relevance_score":0.05}]}`,
			`{"model":"m","query":"what is a cat","documents":["a cat is an animal","a car","paris"]}`, 21},
		{record.EndpointRerankTEI, "/rerank", `[{"index":0,"score":0.9},{"index":1,"score":0.2},{"index":2,"score":0.1}]`,
			`{"query":"what is a cat","texts":["a cat is an animal","a car","paris"]}`, -1},
		{record.EndpointPairScore, "/v1/score",
			`{"id":"s","object":"list","data":[{"index":0,"object":"score","score":0.9},{"index":1,"object":"score","score":0.3},{"index":2,"object":"score","score":0.2}],"usage":{"prompt_tokens":30,"total_tokens":30}}`,
			`{"model":"m","text_1":"what is a cat","text_2":["a cat is an animal","a car","paris"]}`, 30},
	} {
		t.Run(string(tc.endpoint), func(t *testing.T) {
			var path string
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				path = w.R.URL.Path
				ssetest.JSONAnswer(20*time.Millisecond, tc.answer)(w)
			})
			c := &openai.Client{Model: "m", Endpoint: tc.endpoint}
			out := sendRow(t, srv, c, parseRow(t, row))
			wantStatus(t, out, record.StatusSuccess)
			wantInt(t, "items", out.Items, 3)
			wantNil(t, "first content", out.FirstContentMS)
			if tc.tokens >= 0 {
				wantInt(t, "prompt tokens", out.PromptTokens, tc.tokens)
			} else {
				wantNil(t, "prompt tokens", out.PromptTokens)
			}
			if path != tc.path {
				t.Errorf("path %q, want %q", path, tc.path)
			}
			if got := string(srv.LastBody()); got != tc.body {
				t.Errorf("body %s\nwant %s", got, tc.body)
			}
		})
	}
}

func TestRerankIndicesMustCoverTheDocuments(t *testing.T) {
	for _, tc := range []struct {
		name, row, answer, want string
	}{
		{"a document left out", `{"query":"q","documents":["a","b","c"]}`,
			`{"results":[{"index":0,"relevance_score":0.9},{"index":1,"relevance_score":0.1}]}`, "2 ranked documents for 3 sent (want 3)"},
		{"an index twice", `{"query":"q","documents":["a","b"]}`,
			`{"results":[{"index":1,"relevance_score":0.9},{"index":1,"relevance_score":0.1}]}`, "entry 1's index 1 does not name one of the 2 documents once"},
		{"an index out of range", `{"query":"q","documents":["a","b"]}`,
			`{"results":[{"index":0,"relevance_score":0.9},{"index":2,"relevance_score":0.1}]}`, "entry 1's index 2"},
		{"no score", `{"query":"q","documents":["a"]}`, `{"results":[{"index":0}]}`, "entry 0 has no relevance_score"},
		{"more than top_n", `{"query":"q","documents":["a","b","c"],"top_n":2}`,
			`{"results":[{"index":0,"relevance_score":0.9},{"index":1,"relevance_score":0.5},{"index":2,"relevance_score":0.1}]}`, "3 ranked documents for 3 sent (want 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := ssetest.New(t, ssetest.JSONAnswer(0, tc.answer))
			c := &openai.Client{Model: "m", Endpoint: record.EndpointRerank}
			out := sendRow(t, srv, c, parseRow(t, tc.row))
			wantStatus(t, out, record.StatusInvalidResponse)
			wantContains(t, "error", out.Error, tc.want)
		})
	}
	// The best top_n of them is a complete answer, and top_n is sent.
	srv := ssetest.New(t, ssetest.JSONAnswer(0, `{"results":[{"index":2,"relevance_score":0.9},{"index":0,"relevance_score":0.5}]}`))
	c := &openai.Client{Model: "m", Endpoint: record.EndpointRerank}
	out := sendRow(t, srv, c, parseRow(t, `{"query":"q","documents":["a","b","c"],"top_n":2}`))
	wantStatus(t, out, record.StatusSuccess)
	if got := string(srv.LastBody()); !strings.HasSuffix(got, `"top_n":2}`) {
		t.Errorf("body %s", got)
	}
}

func TestRowsMustFitTheEndpoint(t *testing.T) {
	for _, tc := range []struct {
		endpoint  record.Endpoint
		workload  string
		wantError string
	}{
		{record.EndpointRerank, `{"query":"q","documents":["a"]}` + "\n" + `{"input":"x"}`, "w.jsonl:2: input: an embeddings field"},
		{record.EndpointEmbeddings, `{"prompt":"p","max_tokens":3}` + "\n" + `{"input":"x"}`, "w.jsonl:1: input: required"},
		{record.EndpointChat, `{"input":"x"}` + "\n" + `{"prompt":"p","max_tokens":3}`, "w.jsonl:1: input: a field of the embeddings and rerank endpoints"},
		{record.EndpointRerankTEI, `{"query":"q","documents":["a"],"top_n":1}`, "w.jsonl:1: top_n: the rerank-tei endpoint has no top_n"},
		{record.EndpointPairScore, `{"query":"q","documents":["a"],"top_n":1}`, "w.jsonl:1: top_n: the pair-score endpoint has no top_n"},
		{"score", `{"input":"x"}`, `unknown endpoint "score": want one of completions, chat, responses, messages, embeddings, rerank, rerank-tei, pair-score`},
	} {
		w, err := schedule.ParseWorkload("w.jsonl", []byte(tc.workload))
		if err != nil {
			t.Fatal(err)
		}
		err = openai.CheckWorkload(tc.endpoint, w)
		if err == nil || !strings.Contains(err.Error(), tc.wantError) {
			t.Errorf("%s: %v, want %q", tc.endpoint, err, tc.wantError)
		}
	}
}

// A workload none of whose rows carries the endpoint's inputs (a text
// workload for embeddings or rerank, an embeddings workload for a text
// API) is refused as a whole, naming the command that generates one.
func TestAWorkloadOfTheOtherKindNamesItsGenerator(t *testing.T) {
	text := `{"prompt":"p","max_tokens":3}` + "\n" + `{"messages":[{"role":"user","content":"m"}],"max_tokens":3}`
	for _, tc := range []struct {
		endpoint record.Endpoint
		workload string
		want     string
	}{
		{record.EndpointEmbeddings, text, `w.jsonl: this workload has no inputs for the embeddings endpoint: generate one with "servebench workload generate embeddings --batch-size 1 --input-tokens 128 --output embeddings.jsonl"`},
		{record.EndpointRerank, text, `w.jsonl: this workload has no inputs for the rerank endpoint: generate one with "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl"`},
		{record.EndpointRerankTEI, `{"input":"x"}`, `w.jsonl: this workload has no inputs for the rerank-tei endpoint: generate one with "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl"`},
		{record.EndpointPairScore, text, `w.jsonl: this workload has no inputs for the pair-score endpoint: generate one with "servebench workload generate rerank --documents 16 --query-tokens 32 --document-tokens 128 --output rerank.jsonl"`},
		{record.EndpointChat, `{"input":"x"}`, `w.jsonl: this workload has no inputs for the chat endpoint: generate one with "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output fixed.jsonl"`},
		{record.EndpointCompletions, `{"query":"q","documents":["a"]}`, `w.jsonl: this workload has no inputs for the completions endpoint: generate one with "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output fixed.jsonl"`},
		{record.EndpointResponses, `{"input":["x","y"]}`, `w.jsonl: this workload has no inputs for the responses endpoint: generate one with "servebench workload generate fixed --prompt-tokens 512 --max-tokens 128 --output-policy natural --output fixed.jsonl"`},
	} {
		w, err := schedule.ParseWorkload("w.jsonl", []byte(tc.workload))
		if err != nil {
			t.Fatal(err)
		}
		if err := openai.CheckWorkload(tc.endpoint, w); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v,\nwant %s", tc.endpoint, err, tc.want)
		}
	}
}

func TestPoolingRowsAreCheckedWhenRead(t *testing.T) {
	for _, tc := range []struct{ row, want string }{
		{`{"query":"q"}`, "w.jsonl:1: documents: a rerank row needs a non-empty array of strings"},
		{`{"documents":["a"]}`, "w.jsonl:1: query: required in a rerank row"},
		{`{"input":[]}`, "w.jsonl:1: input: an empty array"},
		{`{"input":["a",""]}`, "w.jsonl:1: input[1]: empty string"},
		{`{"input":3}`, "w.jsonl:1: input: want a string or an array of strings"},
		{`{"input":"a","max_tokens":4}`, "w.jsonl:1: max_tokens: a text-generation field in a row with input"},
		{`{"input":"a","query":"q"}`, "w.jsonl:1: input: an embeddings row, give it without query"},
		{`{"query":"q","documents":["a",""]}`, "w.jsonl:1: documents[1]: empty string"},
		{`{"query":"q","documents":["a"],"top_n":0}`, "w.jsonl:1: top_n: must be a positive integer, got 0"},
	} {
		_, err := schedule.ParseWorkload("w.jsonl", []byte(tc.row))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.row, err, tc.want)
		}
	}
}

// Rebatching regroups the inputs in file order; the last row wraps
// around to the first inputs.
func TestRebatchWorkload(t *testing.T) {
	w, err := schedule.ParseWorkload("w.jsonl", []byte(`{"input":["a","b","c"]}`+"\n"+`{"input":"d"}`+"\n"+`{"input":["e"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := capacity.RebatchWorkload(w, 2)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range b.Requests {
		got = append(got, r.ID+":"+strings.Join(r.Input.Texts, ""))
	}
	if strings.Join(got, " ") != "batch2-1:ab batch2-2:cd batch2-3:ea" || b.Name != "w.jsonl#batch=2" || b.SHA256 == w.SHA256 {
		t.Errorf("rows %v name %q", got, b.Name)
	}
	chat, _ := schedule.ParseWorkload("c.jsonl", []byte(`{"prompt":"p","max_tokens":2}`))
	if _, err := capacity.RebatchWorkload(chat, 2); err == nil || !strings.Contains(err.Error(), "c.jsonl:1: input:") {
		t.Errorf("rebatching a chat row: %v", err)
	}
}

// A base URL ending in /v1 is the server's root plus /v1: TEI's /rerank
// lies outside it, /v1/embeddings inside.
func TestBaseURLWithV1(t *testing.T) {
	var paths []string
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		paths = append(paths, w.R.URL.Path)
		ssetest.JSONAnswer(0, `[{"index":0,"score":0.5}]`)(w)
	})
	for _, e := range []record.Endpoint{record.EndpointRerankTEI, record.EndpointEmbeddings} {
		c := &openai.Client{BaseURL: srv.URL + "/v1/", Model: "m", Endpoint: e}
		out := &record.Outcome{}
		row := parseRow(t, `{"query":"q","documents":["a"]}`)
		if e == record.EndpointEmbeddings {
			row = parseRow(t, `{"input":"a"}`)
		}
		c.Do(context.Background(), srv.Epoch, row, "", out)
	}
	if strings.Join(paths, " ") != "/rerank /v1/embeddings" {
		t.Errorf("paths %v", paths)
	}
}
