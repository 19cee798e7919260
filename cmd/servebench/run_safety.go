package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/servebench"
)

// runSafety holds the run and sweep flags that guard against misuse:
// preflight, overwriting, extra headers.
type runSafety struct {
	skipPreflight, overwrite bool
	headers                  headerFlags
	// given names the flags set on the command line.
	given map[string]bool
}

func (s *runSafety) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.skipPreflight, "skip-preflight", false, "do not check the engine (GET /v1/models lists --model, one probe request succeeds) before the load")
	fs.BoolVar(&s.overwrite, "overwrite", false, "remove servebench output already in --output (schedule, outcomes, warmup, reports, rate-* directories) instead of refusing")
	fs.Var(&s.headers, "header", "extra request header NAME=VALUE for a gateway (repeatable; never written to any output)")
}

// checkFlags validates what can be checked from the flags alone: numeric
// ranges, the base URL.
func (f *runFlags) checkFlags() error {
	if err := f.validateNumbers(f.given); err != nil {
		return err
	}
	if f.users.auto && !f.searchUsers {
		return errors.New(`--users auto: only sweep searches the users; give a number`)
	}
	return servebench.ValidateBaseURL(f.baseURL)
}

// beforeLoad runs after the configuration is built and before anything is
// sent: it checks the API key, installs the extra headers, prepares the
// output directory and runs the preflight.
func (f *runFlags) beforeLoad(ctx context.Context, cfg *servebench.RunConfig, stderr io.Writer) error {
	c := cfg.Client
	if strings.ContainsAny(c.APIKey, "\r\n") {
		return fmt.Errorf("--api-key-env: %s holds a CR or LF, which would split the request's headers", f.apiKeyEnv)
	}
	if err := servebench.ValidateHeader("Authorization", c.APIKey); err != nil {
		return fmt.Errorf("--api-key-env: %s holds a control character", f.apiKeyEnv)
	}
	if len(f.headers) > 0 {
		c.HTTPClient = clientWithHeaders(f.headers.header())
	}
	if err := prepareOutput(cfg.OutputDir, f.overwrite); err != nil {
		return err
	}
	if !f.skipPreflight {
		if err := preflight(ctx, *cfg, stderr); err != nil {
			return err
		}
	}
	return f.metricsListen.start(cfg, stderr)
}

// preflight checks the engine with the workload's first row and says what
// it could not check.
func preflight(ctx context.Context, cfg servebench.RunConfig, stderr io.Writer) error {
	rep, err := servebench.PreflightRun(ctx, cfg)
	if rep != nil {
		for _, n := range rep.Notes {
			fmt.Fprintf(stderr, "preflight: %s\n", n)
		}
	}
	if err != nil && rep == nil {
		return err // the configuration itself
	}
	if err != nil && ctx.Err() != nil {
		return errors.New("interrupted during the preflight: nothing was sent or written")
	}
	if err != nil {
		return fmt.Errorf("preflight: %w (--skip-preflight skips this check)", err)
	}
	return nil
}
