// Command simengine runs the simulated inference engine as a process: an
// OpenAI-compatible HTTP server driven by a continuous-batching cost model,
// with faults on demand (see package fixtures/simengine for the endpoints,
// the cost model and the faults).
//
// It listens on -addr, else on $SIMENGINE_ADDR, else on 127.0.0.1:8000, and
// prints "simengine listening on ADDR" once it accepts connections. SIGINT
// or SIGTERM drains it: new requests get 503 and requests in flight have
// -drain-timeout to finish.
//
//	simengine -addr 127.0.0.1:8000 -model tiny -max-num-seqs 32 -time-scale 0.5
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
)

// defaultAddr is the listen address without -addr or SIMENGINE_ADDR.
const defaultAddr = "127.0.0.1:8000"

// envAddr is the environment variable that gives the listen address.
const envAddr = "SIMENGINE_ADDR"

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "simengine:", err)
		os.Exit(2)
	}
}

// run parses args, starts the engine and serves until a signal arrives.
func run(args []string, logOut io.Writer) error {
	cfg := simengine.DefaultConfig()
	fs := flag.NewFlagSet("simengine", flag.ContinueOnError)
	fs.SetOutput(logOut)
	addr := fs.String("addr", "", "listen address (default $"+envAddr+", else "+defaultAddr+")")
	logRequests := fs.Bool("log-requests", false, "log one line per API request (never the prompt)")
	drain := fs.Duration("drain-timeout", 30*time.Second, "time requests in flight get to finish on SIGINT/SIGTERM")
	cfg.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	cfg.Addr = listenAddr(*addr, os.Getenv(envAddr))
	logger := log.New(logOut, "", log.LstdFlags)
	if *logRequests {
		cfg.AccessLog = logger.Writer()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		return err
	}
	logger.Printf("simengine listening on %s", srv.Addr())
	logger.Printf("model %s, seed %d, time scale %g, approximate capacity %.2f requests/s for 256-token prompts and 128-token outputs",
		cfg.Model, cfg.Seed, cfg.TimeScale, cfg.ApproxCapacityRPS(256, 128))
	<-ctx.Done()
	logger.Printf("simengine draining (up to %s)", *drain)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), *drain)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// listenAddr picks the flag, else the environment, else the default.
func listenAddr(flagValue, envValue string) string {
	switch {
	case flagValue != "":
		return flagValue
	case envValue != "":
		return envValue
	}
	return defaultAddr
}
