package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pairPreset is a named load of the paired mode.
type pairPreset struct {
	arrival    string
	rate       float64
	firstToken time.Duration
	gap        time.Duration
	tokens     int
	duration   time.Duration
	// cpuTarget: the CPU-per-request target applies to this load.
	cpuTarget bool
}

// pairPresets are the loads of the paired mode. The three stream counts
// follow from Little's law, L = λ·(first-token delay + tokens·gap); the
// 300 req/s load is the fast 64-token stream of the single-client mode.
var pairPresets = map[string]pairPreset{
	"100":    {arrival: "poisson", rate: 50, firstToken: 50 * time.Millisecond, gap: 50 * time.Millisecond, tokens: 40, duration: 10 * time.Second},
	"1000":   {arrival: "poisson", rate: 500, firstToken: 50 * time.Millisecond, gap: 50 * time.Millisecond, tokens: 40, duration: 10 * time.Second},
	"4000":   {arrival: "poisson", rate: 500, firstToken: 50 * time.Millisecond, gap: 200 * time.Millisecond, tokens: 40, duration: 20 * time.Second},
	"300rps": {arrival: "poisson", rate: 300, firstToken: 0, gap: time.Millisecond, tokens: 64, duration: 10 * time.Second, cpuTarget: true},
}

// presetNames lists the presets in a fixed order, for messages.
const presetNames = "100, 1000, 4000, 300rps"

// pairConfig is a paired run: the load, how many rounds, and where the
// processes run.
type pairConfig struct {
	preset string
	pairPreset
	seed   uint64
	rounds int
	// profile is a directory for the phases' profiles ("": none); trace
	// adds each in-process client's execution trace.
	profile string
	trace   bool
	// also are the servebench CLI binaries run after servebench's own run
	// path in each round.
	also []externalClient
}

// clients are the labels of the clients a round runs, in the order of
// its odd rounds (the even rounds run them in reverse).
func (c pairConfig) clients() []string {
	out := []string{"lean", "servebench"}
	for _, e := range c.also {
		out = append(out, e.label)
	}
	return out
}

// littleL is the streams in flight Little's law predicts.
func (c pairConfig) littleL() float64 {
	return c.rate * (c.firstToken + time.Duration(c.tokens)*c.gap).Seconds()
}

// parsePair reads the paired mode's flags: a preset, then any flag given
// explicitly over it.
func parsePair(args []string) (pairConfig, error) {
	fs := flag.NewFlagSet("loadcheck pair", flag.ContinueOnError)
	preset := fs.String("preset", "1000", "load preset: "+presetNames)
	arrival := fs.String("arrival", "", "constant or poisson (default: the preset's)")
	rate := fs.Float64("rate", 0, "offered rate, requests/s (default: the preset's)")
	firstToken := fs.Duration("first-token-delay", -1, "server delay to the first token (default: the preset's)")
	gap := fs.Duration("token-gap", -1, "server time between tokens (default: the preset's)")
	tokens := fs.Int("tokens", 0, "tokens per stream (default: the preset's)")
	duration := fs.Duration("duration", 0, "arrival window of each phase (default: the preset's)")
	rounds := fs.Int("rounds", 2, "rounds; each runs both clients, in alternating order (lean first in odd rounds)")
	seed := fs.Uint64("seed", 1, "arrival seed")
	profile := fs.String("profile", "", "directory for each in-process phase's CPU, block, mutex and allocation profiles (pprof)")
	trace := fs.Bool("trace", false, "with -profile, also write each in-process phase's execution trace (runtime/trace), phaseN-CLIENT-trace.out")
	var alsoPaths, alsoLabels []string
	fs.Func("also-servebench", "also run this servebench CLI binary (built at any commit) in each round, as PATH run --base-url ... (repeatable)",
		func(s string) error { alsoPaths = append(alsoPaths, s); return nil })
	fs.Func("also-label", "the report's name for the -also-servebench binary of the same position (repeatable; default: the binary's file name)",
		func(s string) error { alsoLabels = append(alsoLabels, s); return nil })
	if err := fs.Parse(args); err != nil {
		return pairConfig{}, err
	}
	also, err := externalClients(alsoPaths, alsoLabels)
	if err != nil {
		return pairConfig{}, err
	}
	if *trace && *profile == "" {
		return pairConfig{}, errors.New("-trace: needs -profile DIR to write the traces to")
	}
	p, ok := pairPresets[*preset]
	if !ok {
		return pairConfig{}, fmt.Errorf("-preset: want one of %s, got %q", presetNames, *preset)
	}
	c := pairConfig{preset: *preset, pairPreset: p, seed: *seed, rounds: *rounds, profile: *profile, trace: *trace, also: also}
	if *arrival != "" {
		c.arrival = *arrival
	}
	if *rate != 0 {
		c.rate = *rate
	}
	if *firstToken >= 0 {
		c.firstToken = *firstToken
	}
	if *gap >= 0 {
		c.gap = *gap
	}
	if *tokens != 0 {
		c.tokens = *tokens
	}
	if *duration != 0 {
		c.duration = *duration
	}
	switch {
	case c.arrival != "constant" && c.arrival != "poisson":
		return c, fmt.Errorf("-arrival: want constant or poisson, got %q", c.arrival)
	case c.rate <= 0:
		return c, fmt.Errorf("-rate: want a positive rate, got %g", c.rate)
	case c.tokens < 1:
		return c, fmt.Errorf("-tokens: want at least 1, got %d", c.tokens)
	case c.duration <= 0 || c.duration > 10*time.Minute:
		return c, fmt.Errorf("-duration: want a window above 0 and at most 10m, got %v", c.duration)
	case c.rounds < 1 || c.rounds > 10:
		return c, fmt.Errorf("-rounds: want 1 to 10, got %d", c.rounds)
	}
	return c, nil
}

// pair runs the paired mode: one server process, and per round the lean
// client and servebench, each in a child process of its own, one after the
// other, in alternating order.
func pair(args []string, stdout io.Writer) error {
	c, err := parsePair(args)
	if err != nil {
		return err
	}
	rep, err := runPair(c, stdout)
	if err != nil {
		return err
	}
	rep.write(stdout)
	if !rep.ok() {
		return errors.New("a target was missed or a request failed")
	}
	return nil
}

// runPair runs the phases of c, saying on stdout what it runs, and
// summarizes them.
func runPair(c pairConfig, stdout io.Writer) (*pairReport, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	for _, e := range c.also {
		if err := e.check(); err != nil {
			return nil, err
		}
	}
	serverCPU, clientCPU, canPin := pickCPUs(allowedCPUs())
	fmt.Fprintf(stdout, "loadcheck pair, preset %s: %s %g req/s, %d-token streams, first token after %v, %v between tokens, %v window per phase, %d rounds\n",
		c.preset, c.arrival, c.rate, c.tokens, c.firstToken, c.gap, c.duration, c.rounds)
	fmt.Fprintf(stdout, "Little's law: L = λ·(first-token delay + tokens·gap) = %g × (%v + %d × %v) = %.0f streams in flight\n",
		c.rate, c.firstToken, c.tokens, c.gap, c.littleL())
	for _, e := range c.also {
		fmt.Fprintf(stdout, "also: %s = %s run (not profiled)\n", e.label, e.path)
	}
	srv := exec.Command(self, "serve", "-tokens", strconv.Itoa(c.tokens), "-first-token-delay", c.firstToken.String(),
		"-token-interval", c.gap.String())
	srv.Stderr = os.Stderr
	out, err := srv.StdoutPipe()
	if err != nil {
		return nil, err
	}
	pinned, err := start(srv, serverCPU, canPin)
	if err != nil {
		return nil, fmt.Errorf("start server: %w", err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("server address: %w", err)
	}
	load := phaseLoad{url: strings.TrimSpace(url), arrival: c.arrival, rate: c.rate, duration: c.duration, tokens: c.tokens, seed: c.seed}
	var phases []phaseResult
	for round := range c.rounds {
		order := c.clients()
		if round%2 == 1 {
			slices.Reverse(order)
		}
		for _, which := range order {
			res, clientPinned, err := c.runClient(self, which, load, len(phases)+1, clientCPU, canPin)
			if err != nil {
				return nil, fmt.Errorf("round %d, %s: %w", round+1, which, err)
			}
			pinned = pinned && clientPinned
			phases = append(phases, *res)
		}
	}
	if pinned {
		fmt.Fprintf(stdout, "pinning: server on CPU %d, each client on CPU %d (sched_setaffinity)\n", serverCPU, clientCPU)
	} else {
		fmt.Fprintln(stdout, "pinning: none (no second CPU or no sched_setaffinity); server and clients share the CPUs")
	}
	return newPairReport(phases, c.cpuTarget, c.clients()[2:]), nil
}

// runClient runs phase number phase: the client labelled which, in a child
// process pinned to cpu when pin is set.
func (c pairConfig) runClient(self, which string, load phaseLoad, phase, cpu int, pin bool) (*phaseResult, bool, error) {
	for _, e := range c.also {
		if e.label == which {
			return runExternalPhase(e, load, cpu, pin)
		}
	}
	args := append([]string{"-client", which}, load.flags()...)
	if c.profile != "" {
		args = append(args, "-profile", filepath.Join(c.profile, fmt.Sprintf("phase%d-%s", phase, which)))
		if c.trace {
			args = append(args, "-trace")
		}
	}
	return runPhase(self, args, load.duration, cpu, pin)
}

// pickCPUs chooses the server's CPU (the last allowed) and the clients'
// (the first), when at least two are allowed.
func pickCPUs(cpus []int) (server, client int, ok bool) {
	if len(cpus) < 2 {
		return 0, 0, false
	}
	return cpus[len(cpus)-1], cpus[0], true
}

// start starts cmd, pinned to cpu when pin is set.
func start(cmd *exec.Cmd, cpu int, pin bool) (bool, error) {
	if !pin {
		cpu = -1
	}
	return startPinned(cmd, cpu)
}

// runPhase runs one client in a child process and reads its result.
func runPhase(self string, args []string, window time.Duration, cpu int, pin bool) (*phaseResult, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), window+3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, append([]string{"pair-client"}, args...)...)
	var stdout bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	pinned, err := start(cmd, cpu, pin)
	if err != nil {
		return nil, false, err
	}
	if err := cmd.Wait(); err != nil {
		return nil, false, err
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var res phaseResult
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil {
		return nil, false, fmt.Errorf("reading the client's result: %w", err)
	}
	return &res, pinned, nil
}
