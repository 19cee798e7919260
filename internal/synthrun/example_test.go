package synthrun_test

import (
	"fmt"

	"github.com/servebench/servebench/internal/synthrun"
)

// Request 1 of a synthetic run: scheduled at 1 ms, sent (1·7919 mod 1500)
// µs = 0.419 ms late, its first token 80 + 104.729 ms after that; request
// 50 fails: sent (50·7919 mod 1500) µs = 1.45 ms late, ended 2 ms later.
func ExampleOutcome() {
	o := synthrun.Outcome(1, 64)
	fmt.Println(o.ID, o.Status, o.ScheduledMS, *o.SentMS, o.ContentMS[0], len(o.ContentMS), *o.OutputTokens)
	f := synthrun.Outcome(50, 64)
	fmt.Println(f.ID, f.Status, *f.HTTPStatus, f.TerminalMS)
	// Output:
	// r1 success 1 1.419 186.148 64 64
	// r50 http_error 503 53.45
}
