package schedule

import (
	"strings"
	"testing"
)

func TestParseTurnHistory(t *testing.T) {
	for in, want := range map[string]TurnHistory{"": TurnHistoryEngine, "engine": TurnHistoryEngine, "workload": TurnHistoryWorkload} {
		if got, err := ParseTurnHistory(in); err != nil || got != want {
			t.Errorf("ParseTurnHistory(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseTurnHistory("Engine"); err == nil || err.Error() != `want engine or workload, got "Engine"` {
		t.Errorf("ParseTurnHistory(Engine): %v", err)
	}
	if TurnHistory("").OrDefault() != TurnHistoryEngine || TurnHistoryWorkload.OrDefault() != TurnHistoryWorkload {
		t.Error("OrDefault")
	}
}

// TestNegativeThinkTimeNamesFileLineAndField: a think_ms below 0 is
// refused with the file, the line and the field.
func TestNegativeThinkTimeNamesFileLineAndField(t *testing.T) {
	_, err := ParseWorkload("conv.jsonl", []byte(`{"id":"c-1","prompt":"a","max_tokens":2,"conversation":"c","turn":1}

{"id":"c-2","prompt":"b","max_tokens":2,"conversation":"c","turn":2,"think_ms":-1}
`))
	if err == nil || err.Error() != "conv.jsonl:3: think_ms: must not be negative" {
		t.Fatalf("error %v, want conv.jsonl:3: think_ms: must not be negative", err)
	}
}

// TestCheckEngineHistory: a turn may carry as many assistant messages as
// its conversation has earlier turns (turn 3: 2), not more; rows outside
// conversations are not checked.
func TestCheckEngineHistory(t *testing.T) {
	const good = `{"id":"solo","messages":[{"role":"assistant","content":"few-shot"},{"role":"user","content":"q"}],"max_tokens":2}
{"id":"c-1","conversation":"c","turn":1,"messages":[{"role":"user","content":"q1"}],"max_tokens":2}
{"id":"c-3","conversation":"c","turn":3,"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},{"role":"user","content":"q2"},{"role":"assistant","content":"a2"},{"role":"user","content":"q3"}],"max_tokens":2}
{"id":"c-2","conversation":"c","turn":2,"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},{"role":"user","content":"q2"}],"max_tokens":2}
`
	w, err := ParseWorkload("conv.jsonl", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.CheckEngineHistory(); err != nil {
		t.Fatalf("a good workload refused: %v", err)
	}
	bad := strings.Replace(good, `{"role":"user","content":"q1"}],"max_tokens":2}`, `{"role":"assistant","content":"shot"},{"role":"user","content":"q1"}],"max_tokens":2}`, 1)
	w, err = ParseWorkload("conv.jsonl", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	err = w.CheckEngineHistory()
	want := `conv.jsonl:2: messages: turn 1 of conversation "c" has 1 assistant messages but 0 earlier turns`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want it to start %q", err, want)
	}
}

// A row's answer_turns names one earlier turn per assistant message: turn
// 3 may carry turn 1's answer alone; a name for a later turn, or a count
// that does not match its assistant messages, is refused.
func TestCheckEngineHistoryAnswerTurns(t *testing.T) {
	rows := func(turns string) string {
		return `{"id":"c-1","conversation":"c","turn":1,"messages":[{"role":"user","content":"q1"}],"max_tokens":2}
{"id":"c-2","conversation":"c","turn":2,"messages":[{"role":"user","content":"sub"}],"max_tokens":2}
{"id":"c-3","conversation":"c","turn":3,"answer_turns":` + turns + `,"messages":[{"role":"user","content":"q1"},{"role":"assistant","content":"a1"},{"role":"user","content":"q3"}],"max_tokens":2}
`
	}
	for turns, want := range map[string]string{
		"[1]":   "",
		"[3]":   `conv.jsonl:3: answer_turns: turn 3 is not an earlier turn of turn 3 of conversation "c"`,
		"[1,2]": `conv.jsonl:3: answer_turns: 2 turns named for 1 assistant messages`,
	} {
		w, err := ParseWorkload("conv.jsonl", []byte(rows(turns)))
		if err != nil {
			t.Fatal(err)
		}
		err = w.CheckEngineHistory()
		if (want == "" && err != nil) || (want != "" && (err == nil || err.Error() != want)) {
			t.Errorf("answer_turns %s: error %v, want %q", turns, err, want)
		}
	}
}
