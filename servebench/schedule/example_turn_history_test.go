package schedule_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/schedule"
)

// The history mode comes from a flag or a contract; empty is engine.
func ExampleParseTurnHistory() {
	for _, s := range []string{"", "workload", "answers"} {
		h, err := schedule.ParseTurnHistory(s)
		fmt.Printf("%q -> %q %v\n", s, h, err)
	}
	// Output:
	// "" -> "engine" <nil>
	// "workload" -> "workload" <nil>
	// "answers" -> "" want engine or workload, got "answers"
}

// Under engine history each assistant message of a later turn stands for
// an earlier turn's answer, so turn 2 may carry one and no more.
func ExampleWorkload_CheckEngineHistory() {
	w, _ := schedule.ParseWorkload("chat.jsonl", []byte(`{"id":"t1","conversation":"c","turn":1,"messages":[{"role":"user","content":"hi"}],"max_tokens":8}
{"id":"t2","conversation":"c","turn":2,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"so?"}],"max_tokens":8}
`))
	fmt.Println(w.CheckEngineHistory())
	// Output:
	// chat.jsonl:2: messages: turn 2 of conversation "c" has 2 assistant messages but 1 earlier turns: with engine history each assistant message stands for an earlier turn's answer (use workload history to send them as written)
}
