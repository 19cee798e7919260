// Command membench checks the memory and time targets of long runs.
//
// Usage:
//
//	go run ./cmd/membench gen -n 1000000 -dir /tmp/run1m   # synthetic run directory
//	go build -o /tmp/servebench ./cmd/servebench
//	go run ./cmd/membench score -servebench /tmp/servebench -dir /tmp/run1m   # time `servebench score --run` on it
//	go build -o /tmp/simengine ./cmd/simengine && go build -o /tmp/membench ./cmd/membench
//	/tmp/membench run-slope -simengine /tmp/simengine       # run memory slope, 100k and 300k requests
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: membench gen|score|run|run-slope [flags]")
		os.Exit(1)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = genRun(os.Args[2:])
	case "score":
		err = scoreCheck(os.Args[2:])
	case "run":
		err = runOnce(os.Args[2:])
	case "run-slope":
		err = runSlope(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want gen, score, run or run-slope", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "membench:", err)
		os.Exit(1)
	}
}
