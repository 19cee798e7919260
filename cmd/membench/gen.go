package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/servebench/servebench/internal/synthrun"
)

// genRun writes a synthetic run directory (synthrun.Write): schedule.json
// and outcomes.jsonl as the runner writes them, for n open-loop requests
// at 1,000 req/s, each a 64-token stream of one-token events.
func genRun(args []string) error {
	fs := flag.NewFlagSet("membench gen", flag.ContinueOnError)
	n := fs.Int("n", 1_000_000, "requests")
	tokens := fs.Int("tokens", 64, "tokens per stream")
	dir := fs.String("dir", "", "run directory to write (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *n < 1 || *tokens < 2 {
		return fmt.Errorf("gen: want -dir, -n >= 1 and -tokens >= 2")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	return synthrun.Write(*dir, *n, *tokens)
}
