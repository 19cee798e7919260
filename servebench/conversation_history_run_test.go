package servebench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// conversationRows are two conversations of three chat turns. The
// assistant messages of the later turns are placeholders that only
// workload history sends.
const conversationRows = `{"id":"a-1","conversation":"a","turn":1,"messages":[{"role":"user","content":"tell me about rivers"}],"max_tokens":12}
{"id":"a-2","conversation":"a","turn":2,"think_ms":5,"messages":[{"role":"user","content":"tell me about rivers"},{"role":"assistant","content":"WRITTEN a-1"},{"role":"user","content":"and lakes?"}],"max_tokens":12}
{"id":"a-3","conversation":"a","turn":3,"think_ms":5,"messages":[{"role":"user","content":"tell me about rivers"},{"role":"assistant","content":"WRITTEN a-1"},{"role":"user","content":"and lakes?"},{"role":"assistant","content":"WRITTEN a-2"},{"role":"user","content":"and seas?"}],"max_tokens":12}
{"id":"b-1","conversation":"b","turn":1,"messages":[{"role":"user","content":"tell me about mountains"}],"max_tokens":12}
{"id":"b-2","conversation":"b","turn":2,"think_ms":5,"messages":[{"role":"user","content":"tell me about mountains"},{"role":"assistant","content":"WRITTEN b-1"},{"role":"user","content":"and hills?"}],"max_tokens":12}
{"id":"b-3","conversation":"b","turn":3,"think_ms":5,"messages":[{"role":"user","content":"tell me about mountains"},{"role":"assistant","content":"WRITTEN b-1"},{"role":"user","content":"and hills?"},{"role":"assistant","content":"WRITTEN b-2"},{"role":"user","content":"and valleys?"}],"max_tokens":12}
`

// wireLog is a server on 127.0.0.1 in front of the simulated engine: it
// keeps each request's body as received and the answer text and prompt
// tokens of each response as the engine streamed them (read from the SSE
// events it passes on unchanged), keyed by the request's ID from its
// X-Request-Id. A request whose ID is in fail gets a 500 instead.
type wireLog struct {
	mu      sync.Mutex
	bodies  map[string][]byte
	answers map[string]string
	prompt  map[string]int
	fail    map[string]bool
	engine  string
	url     string
}

func startWireLog(t *testing.T, engine *simengine.Server, fail ...string) *wireLog {
	t.Helper()
	l := &wireLog{bodies: map[string][]byte{}, answers: map[string]string{}, prompt: map[string]int{}, fail: map[string]bool{}, engine: engine.BaseURL()}
	for _, id := range fail {
		l.fail[id] = true
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(l.serve)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	l.url = "http://" + ln.Addr().String()
	if strings.HasSuffix(l.engine, "/v1") {
		l.url += "/v1"
	}
	return l
}

func (l *wireLog) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	parts := strings.Split(r.Header.Get("X-Request-Id"), "/")
	id := ""
	if len(parts) == 3 {
		id = parts[1]
	}
	l.mu.Lock()
	l.bodies[id] = body
	failing := l.fail[id]
	l.mu.Unlock()
	if failing {
		http.Error(w, `{"error":{"message":"injected failure"}}`, http.StatusInternalServerError)
		return
	}
	target := strings.TrimSuffix(l.engine, "/v1") + r.URL.Path
	req, _ := http.NewRequestWithContext(r.Context(), r.Method, target, bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	stream, _ := io.ReadAll(resp.Body)
	answer, prompt := sseAnswer(stream)
	l.mu.Lock()
	l.answers[id], l.prompt[id] = answer, prompt
	l.mu.Unlock()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(stream)
}

// sseAnswer reads a chat or Responses event stream: the visible text its
// deltas carry and the prompt tokens its usage reports.
func sseAnswer(stream []byte) (string, int) {
	var text strings.Builder
	prompt := 0
	for line := range strings.SplitSeq(string(stream), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev struct {
			Type    string `json:"type"`
			Delta   any    `json:"delta"`
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
			Usage *struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
			Response struct {
				Usage *struct {
					InputTokens int `json:"input_tokens"`
				} `json:"usage"`
			} `json:"response"`
		}
		if json.Unmarshal([]byte(data), &ev) != nil {
			continue
		}
		for _, c := range ev.Choices {
			text.WriteString(c.Delta.Content)
		}
		if s, ok := ev.Delta.(string); ok && ev.Type == "response.output_text.delta" {
			text.WriteString(s)
		}
		if ev.Usage != nil {
			prompt = ev.Usage.PromptTokens
		}
		if ev.Type == "response.completed" && ev.Response.Usage != nil {
			prompt = ev.Response.Usage.InputTokens
		}
	}
	return text.String(), prompt
}

// sentMessages decodes the messages (chat) or input items (Responses) a
// request carried.
func (l *wireLog) sentMessages(t *testing.T, id string) []record.Message {
	t.Helper()
	l.mu.Lock()
	body, ok := l.bodies[id]
	l.mu.Unlock()
	if !ok {
		t.Fatalf("the server never received %s", id)
	}
	// Chat messages and Responses input items (which add "type") alike.
	type wireMessage struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var b struct {
		Messages []wireMessage `json:"messages"`
		Input    []wireMessage `json:"input"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("%s: %v in %s", id, err, body)
	}
	sent := b.Messages
	if sent == nil {
		sent = b.Input
	}
	out := make([]record.Message, len(sent))
	for i, m := range sent {
		out[i] = record.Message{Role: m.Role, Content: m.Content}
	}
	return out
}

func runConversations(t *testing.T, endpoint record.Endpoint, history schedule.TurnHistory, fail ...string) (*wireLog, *servebench.RunResult) {
	t.Helper()
	engine := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	wire := startWireLog(t, engine, fail...)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, conversationRows), Arrival: constant(t, 20), Count: 2, TurnHistory: history,
		Client: &openai.Client{BaseURL: wire.url, Model: "simengine-tiny", Endpoint: endpoint, TotalTimeout: 20 * time.Second},
		// The later turns are due when the turn before ends: a window far
		// longer than the run holds them on a busy machine too, where the
		// schedule's own 100 ms would leave late ones out of the cohort.
		Score: servebench.Scoring{WindowMS: &[2]float64{0, 60_000}},
		// The tests judge which turns are sent and what they carry; a
		// busy machine may send one tens of milliseconds late, past the
		// 20 ms default that makes the load valid.
		LagTolerance: time.Second,
		OutputDir:    t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return wire, res
}

// wantMessages checks a later turn's messages against the row's user
// turns and the given assistant texts, in order.
func wantMessages(t *testing.T, id string, got []record.Message, user []string, assistant []string) {
	t.Helper()
	var want []record.Message
	for i, u := range user {
		want = append(want, record.Message{Role: "user", Content: u})
		if i < len(assistant) {
			want = append(want, record.Message{Role: "assistant", Content: assistant[i]})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s carried %d messages, want %d: %+v", id, len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s message %d is %+v, want %+v (byte for byte)", id, i, got[i], want[i])
		}
	}
}

// TestEngineHistoryCarriesTheEnginesAnswers runs two conversations of
// three turns with the default history: the server receives in turn 2 the
// exact text the engine streamed for turn 1, and in turn 3 those of turns
// 1 and 2, in order. The records hold no answer text, and the report's
// prompt tokens sent are the sum of the six usages the engine streamed.
func TestEngineHistoryCarriesTheEnginesAnswers(t *testing.T) {
	wire, res := runConversations(t, record.EndpointChat, "")
	a1, a2, b1, b2 := wire.answers["a-1"], wire.answers["a-2"], wire.answers["b-1"], wire.answers["b-2"]
	if a1 == "" || b1 == "" || a1 == b1 || a1 == a2 {
		t.Fatalf("the engine's answers do not tell the turns apart: a-1 %q, a-2 %q, b-1 %q", a1, a2, b1)
	}
	wantMessages(t, "a-2", wire.sentMessages(t, "a-2"), []string{"tell me about rivers", "and lakes?"}, []string{a1})
	wantMessages(t, "a-3", wire.sentMessages(t, "a-3"), []string{"tell me about rivers", "and lakes?", "and seas?"}, []string{a1, a2})
	wantMessages(t, "b-3", wire.sentMessages(t, "b-3"), []string{"tell me about mountains", "and hills?", "and valleys?"}, []string{b1, b2})

	total := 0
	for _, id := range []string{"a-1", "a-2", "a-3", "b-1", "b-2", "b-3"} {
		total += wire.prompt[id]
	}
	g := res.Report.Generator
	if g.History != schedule.TurnHistoryEngine || g.PromptTokensSent == nil ||
		*g.PromptTokensSent != (report.PromptTokensSent{Total: int64(total), Reported: 6, Sent: 6}) {
		t.Fatalf("generator history %q, prompt tokens sent %+v; want engine, {%d 6 6}", g.History, g.PromptTokensSent, total)
	}
	for _, o := range outcomesOf(t, res) {
		if o.Status != record.StatusSuccess || o.Text != nil {
			t.Fatalf("outcome %s: status %s, text %v; want success without text", o.ID, o.Status, o.Text)
		}
	}
	raw, err := os.ReadFile(filepath.Join(res.Dir, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(`"text"`)) || bytes.Contains(raw, []byte(a1)) {
		t.Fatal("outcomes.jsonl holds answer text though the client was not asked to keep it")
	}
	turns := res.Report.Breakdown["turn"].Values
	for _, v := range []string{"1", "2", "3"} {
		if turns[v].Offered != 2 || turns[v].Qualified != 2 {
			t.Fatalf("breakdown turn %s: %+v, want 2 offered, 2 qualified", v, turns[v])
		}
	}
	if len(turns) != 3 {
		t.Fatalf("breakdown turn has %d values, want 3", len(turns))
	}
}

// TestEngineHistoryOverResponses sends the same conversations to the
// Responses API: turn 2's input items carry turn 1's streamed answer.
func TestEngineHistoryOverResponses(t *testing.T) {
	wire, _ := runConversations(t, record.EndpointResponses, schedule.TurnHistoryEngine)
	a1, a2 := wire.answers["a-1"], wire.answers["a-2"]
	if a1 == "" || a2 == "" {
		t.Fatalf("no answer read from the Responses stream: a-1 %q, a-2 %q", a1, a2)
	}
	wantMessages(t, "a-3", wire.sentMessages(t, "a-3"), []string{"tell me about rivers", "and lakes?", "and seas?"}, []string{a1, a2})
}

// TestWorkloadHistorySendsTheFilesMessages: with workload history the
// later turns carry the file's assistant messages as written.
func TestWorkloadHistorySendsTheFilesMessages(t *testing.T) {
	wire, res := runConversations(t, record.EndpointChat, schedule.TurnHistoryWorkload)
	wantMessages(t, "a-3", wire.sentMessages(t, "a-3"), []string{"tell me about rivers", "and lakes?", "and seas?"}, []string{"WRITTEN a-1", "WRITTEN a-2"})
	if g := res.Report.Generator; g.History != schedule.TurnHistoryWorkload {
		t.Fatalf("generator history %q, want workload", g.History)
	}
}

// TestAFailedTurnStopsItsConversation: the server fails a-1 with a 500.
// Its later turns are never sent and are recorded as not_sent, naming
// a-1 and its status; they stay offered, so attainment is the 3 turns of
// b over 6.
func TestAFailedTurnStopsItsConversation(t *testing.T) {
	wire, res := runConversations(t, record.EndpointChat, "", "a-1")
	wire.mu.Lock()
	_, a2 := wire.bodies["a-2"]
	_, a3 := wire.bodies["a-3"]
	wire.mu.Unlock()
	if a2 || a3 {
		t.Fatal("a later turn of a failed conversation reached the server")
	}
	wantMessages(t, "b-2", wire.sentMessages(t, "b-2"), []string{"tell me about mountains", "and hills?"}, []string{wire.answers["b-1"]})
	status := map[string]record.Outcome{}
	for _, o := range outcomesOf(t, res) {
		status[o.ID] = o
	}
	if status["a-1"].Status != record.StatusHTTPError {
		t.Fatalf("a-1 is %s, want http_error", status["a-1"].Status)
	}
	for _, id := range []string{"a-2", "a-3"} {
		o := status[id]
		if o.Status != record.StatusNotSent || !strings.Contains(o.Error, "(a-1) ended http_error") || o.SentMS != nil {
			t.Fatalf("%s: status %s, error %q; want not_sent naming a-1 and http_error", id, o.Status, o.Error)
		}
	}
	r := res.Report
	if r.Offered != 6 || r.Qualified != 3 || r.StatusCounts[record.StatusNotSent] != 2 || *r.Attainment != 0.5 {
		t.Fatalf("offered %d, qualified %d, not_sent %d, attainment %v; want 6, 3, 2, 0.5", r.Offered, r.Qualified, r.StatusCounts[record.StatusNotSent], *r.Attainment)
	}
	// The two turns stay in the denominator, but the engine's failure
	// kept them from being sent, not the generator: the load was
	// delivered.
	if !r.Valid || r.StoppedTurns != 2 {
		t.Fatalf("valid %v (%q), stopped turns %d; want valid, 2 stopped turns", r.Valid, r.InvalidReasons, r.StoppedTurns)
	}
	for _, id := range []string{"a-2", "a-3"} {
		if status[id].Reason != record.ReasonConversationStopped {
			t.Fatalf("%s: reason %q, want %q", id, status[id].Reason, record.ReasonConversationStopped)
		}
	}
	if p := r.Generator.PromptTokensSent; p == nil || p.Sent != 4 || p.Reported != 3 {
		t.Fatalf("prompt tokens sent %+v, want 4 sent (a-1 and b's three), 3 reported (a-1's 500 has no usage)", p)
	}
}

// TestHistoryIsCheckedBeforeAnything: an unknown mode, and under engine
// history a turn with more assistant messages than earlier turns, are
// refused before the run directory is made; the second names the file,
// the line and the field.
func TestHistoryIsCheckedBeforeAnything(t *testing.T) {
	over := `{"id":"a-1","conversation":"a","turn":1,"messages":[{"role":"user","content":"q"}],"max_tokens":2}
{"id":"a-2","conversation":"a","turn":2,"messages":[{"role":"assistant","content":"x"},{"role":"assistant","content":"y"},{"role":"user","content":"q"}],"max_tokens":2}
`
	for _, tc := range []struct {
		rows    string
		history schedule.TurnHistory
		want    string
	}{
		{conversationRows, "answers", `run: history: want engine or workload, got "answers"`},
		{over, "", `run: w.jsonl:2: messages: turn 2 of conversation "a" has 2 assistant messages but 1 earlier turns`},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		_, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: workloadOf(t, tc.rows), Arrival: constant(t, 20), Count: 1, TurnHistory: tc.history,
			Client:    &openai.Client{BaseURL: "http://127.0.0.1:1", Model: "m", Endpoint: record.EndpointChat},
			OutputDir: dir,
		})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error %v, want it to start %q", err, tc.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("the run directory was made (%v)", err)
		}
	}
	// The same rows are sent as written under workload history.
	client := clientFor(simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 }))
	client.Endpoint = record.EndpointChat
	if _, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, over), Arrival: constant(t, 20), Count: 1, TurnHistory: schedule.TurnHistoryWorkload,
		Client: client, OutputDir: t.TempDir(),
	}); err != nil {
		t.Fatalf("workload history refused the rows: %v", err)
	}
}
