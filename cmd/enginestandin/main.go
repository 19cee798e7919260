// Command enginestandin imitates an inference engine's server for tests:
// invoked under an engine's name it parses that engine's command line
// against the documented flag list of a pinned version, refuses any other
// flag, and serves the simulated engine on the engine's port with its
// health path, readiness behaviour and metric names (see package
// fixtures/simengine/standin).
//
// The engine is chosen by the name it is run under, followed by the words
// the engine's command starts with:
//
//	vllm serve --model m --port 8000
//	python3 -m sglang.launch_server --model-path m --port 30000
//	text-generation-launcher --model-id m --port 80
//	llama-server --model /m.gguf --port 8080
//
// or explicitly: enginestandin vllm serve --model m. SIGINT or SIGTERM stops
// it.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/servebench/servebench/fixtures/simengine/standin"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, args, err := personality(os.Args)
	if err == nil {
		err = standin.Serve(ctx, p, standin.Options{Args: args, Getenv: os.Getenv, Log: os.Stderr})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "enginestandin:", err)
		os.Exit(2)
	}
}

// personality picks the engine from the name the program runs under (or
// the first argument) and returns the arguments after the engine's command.
func personality(argv []string) (standin.Personality, []string, error) {
	cmd := append([]string{filepath.Base(argv[0])}, argv[1:]...)
	if cmd[0] == "enginestandin" && len(cmd) > 1 {
		cmd = cmd[1:]
	}
	for _, p := range standin.Personalities() {
		if len(cmd) >= len(p.Command) && slices.Equal(cmd[:len(p.Command)], p.Command) {
			return p, cmd[len(p.Command):], nil
		}
	}
	return standin.Personality{}, nil, fmt.Errorf("%q is none of: vllm serve, python3 -m sglang.launch_server, text-generation-launcher, llama-server", cmd)
}
