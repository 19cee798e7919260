// Command loadcheck measures what the servebench client itself costs: it
// runs a fast streaming server pinned to one core and the servebench runner
// pinned to the other, replays Poisson arrivals of 64-token streams, and
// compares every request's client-side TTFT with the server's own
// first-token time for the same X-Request-Id.
//
// Usage:
//
//	go run ./cmd/loadcheck                       # 200 and 300 req/s, 20 s each
//	go run ./cmd/loadcheck -rates 300 -duration 30s
//
// It prints, per rate, the delivered fraction of the ideal rate, the p99
// schedule lag, the client's added TTFT (p50, p99), client CPU per request
// and the client's peak resident set, with a verdict against the targets,
// and exits 1 when a target is missed. It needs taskset (util-linux) and two
// cores; with one core it runs unpinned and says so.
//
// # Paired with a lean client
//
//	go run ./cmd/loadcheck pair -preset 1000     # about 1,000 streams in flight
//	go run ./cmd/loadcheck pair -preset 4000 -rounds 1
//	go run ./cmd/loadcheck pair -preset 300rps   # 64-token streams, the CPU target
//
// pair runs a lean reference client (one goroutine per request, bufio line
// reads, no servebench package) and servebench's own run path alternately,
// in one invocation, against a mock engine with a known first-token delay
// and token gap, open loop, with the load sized by Little's law. Each
// client runs in a child process of its own, so that its peak resident set
// is its own, pinned to one CPU and the server to another
// (sched_setaffinity) where Linux allows it. It prints both clients' TTFT
// error (client TTFT minus the server's own first-token time, joined by
// X-Request-Id) at p50 and p99, schedule lag, CPU per request and peak RSS,
// the medians over the phases with their differences and ratios, and the
// targets; it exits 1 when one is missed.
//
//	go run ./cmd/loadcheck pair -preset 1000 -also-servebench /tmp/servebench-e12cfa1 -also-label e12cfa1
//
// -also-servebench adds a servebench CLI binary built at any commit to
// every round ("PATH run" in a pinned child process of its own); the pair
// reads each request's clocks back from its run directory, its CPU and
// peak RSS from the child, and judges servebench's TTFT error against it
// with the lean client's margins. -profile DIR -trace also writes each
// in-process phase's execution trace.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "serve":
			exitOn(serve(os.Args[2:]))
			return
		case "client":
			exitOn(client(os.Args[2:]))
			return
		case "pair":
			exitOn(pair(os.Args[2:], os.Stdout))
			return
		case "pair-client":
			exitOn(pairClient(os.Args[2:]))
			return
		}
	}
	exitOn(orchestrate(os.Args[1:]))
}

func exitOn(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadcheck:", err)
		os.Exit(1)
	}
}

// orchestrate runs one server and one client process per rate, each pinned
// to its own core.
func orchestrate(args []string) error {
	fs := flag.NewFlagSet("loadcheck", flag.ContinueOnError)
	rates := fs.String("rates", "200,300", "comma-separated offered rates (requests/s)")
	duration := fs.Duration("duration", 20*time.Second, "arrival window per rate")
	tokens := fs.Int("tokens", 64, "tokens per stream")
	interval := fs.Duration("token-interval", time.Millisecond, "server time between tokens")
	if err := fs.Parse(args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	pin := func(core int, argv ...string) *exec.Cmd {
		if _, err := exec.LookPath("taskset"); err == nil && runtime.NumCPU() >= 2 {
			return exec.Command("taskset", append([]string{"-c", strconv.Itoa(core), self}, argv...)...)
		}
		return exec.Command(self, argv...)
	}
	if _, err := exec.LookPath("taskset"); err != nil || runtime.NumCPU() < 2 {
		fmt.Println("note: taskset or a second core is missing; client and server share the CPU")
	}
	failed := false
	for _, r := range strings.Split(*rates, ",") {
		srv := pin(1, "serve", "-tokens", strconv.Itoa(*tokens), "-token-interval", interval.String())
		out, err := srv.StdoutPipe()
		if err != nil {
			return err
		}
		srv.Stderr = os.Stderr
		if err := srv.Start(); err != nil {
			return fmt.Errorf("start server: %w", err)
		}
		url, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			_ = srv.Process.Kill()
			return fmt.Errorf("server address: %w", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), *duration+2*time.Minute)
		cl := pin(0, "client", "-url", strings.TrimSpace(url), "-rate", strings.TrimSpace(r),
			"-duration", duration.String(), "-tokens", strconv.Itoa(*tokens))
		cl.Stdout, cl.Stderr = os.Stdout, os.Stderr
		err = runCtx(ctx, cl)
		cancel()
		_ = srv.Process.Kill()
		_ = srv.Wait()
		if err != nil {
			failed = true
		}
	}
	if failed {
		return fmt.Errorf("a target was missed")
	}
	return nil
}

// runCtx runs cmd and kills it when ctx ends.
func runCtx(ctx context.Context, cmd *exec.Cmd) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		return ctx.Err()
	}
}
