package matchers_test

import (
	"time"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func ExampleHaveStartupWithin() {
	// The engine was started twice: ready after 41 s and 47 s, first
	// token 3 s later each time.
	r := scored()
	r.EngineStarts = []report.EngineStart{{ReadyMS: ptr(41000.0), FirstTokenMS: ptr(44000.0)}, {ReadyMS: ptr(47000.0), FirstTokenMS: ptr(50000.0)}}
	g := printFailures()
	g.Expect(r).To(matchers.HaveStartupWithin(120*time.Second, 150*time.Second)) // passes
	g.Expect(r).To(matchers.HaveStartupWithin(45*time.Second, 0))
	// Output:
	// Expected each of the 2 engine starts: ready within 45s
	// start 2: ready after 47000.0 ms, bound 45s
}
