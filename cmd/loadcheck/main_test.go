package main

import (
	"os"
	"testing"
)

// TestMain lets the paired mode's tests re-execute the test binary as the
// loadcheck command: it runs the server and the clients' children the way
// the command does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "serve" || os.Args[1] == "pair-client") {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
