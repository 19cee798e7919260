package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/servebench/servebench/internal/outputdir"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
)

// runSafety holds the run and sweep flags that guard against misuse:
// preflight, overwriting, extra headers.
type runSafety struct {
	skipPreflight, overwrite bool
	headers                  headerFlags
	followRedirects          string
	// out is the prepared --output, whose manifest the command writes
	// when it is done.
	out *outputdir.Dir
	// given names the flags set on the command line.
	given map[string]bool
}

func (s *runSafety) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.skipPreflight, "skip-preflight", false, "do not check the engine (GET /v1/models lists --model, one probe request succeeds) before the load")
	fs.BoolVar(&s.overwrite, "overwrite", false, "remove what servebench wrote in --output before (what its manifest.json names) instead of refusing a directory that is not empty")
	fs.Var(&s.headers, "header", "extra request header \"Name: value\" or NAME=VALUE for a gateway (repeatable; never written to any output; Authorization, X-Api-Key, Content-Type, Accept and X-Request-Id are refused)")
	fs.StringVar(&s.followRedirects, "follow-redirects", string(openai.RedirectNone), "which redirects to follow: none (a redirect is an http_error with reason redirect) or same-origin (same scheme, host and port; method and body kept)")
}

// checkFlags validates what can be checked from the flags alone: numeric
// ranges, the base URL.
func (f *runFlags) checkFlags() error {
	if err := f.validateNumbers(f.given); err != nil {
		return err
	}
	if err := f.headers.check(); err != nil {
		return err
	}
	if _, err := openai.ParseRedirectPolicy(f.followRedirects); err != nil {
		return fmt.Errorf("--follow-redirects: %w", err)
	}
	if f.users.auto && !f.searchUsers {
		return errors.New(`--users auto: only sweep searches the users; give a number`)
	}
	return openai.ValidateBaseURL(f.baseURL)
}

// beforeLoad runs after the configuration is built and before anything is
// sent: it checks the API key, installs the extra headers, prepares the
// output directory, loads the LoRA adapters of --load-adapters and runs
// the preflight.
func (f *runFlags) beforeLoad(ctx context.Context, cfg *servebench.RunConfig, stderr io.Writer) error {
	c := cfg.Client
	if strings.ContainsAny(c.APIKey, "\r\n") {
		return fmt.Errorf("--api-key-env: %s holds a CR or LF, which would split the request's headers", f.apiKeyEnv)
	}
	if err := openai.ValidateHeader("Authorization", c.APIKey); err != nil {
		return fmt.Errorf("--api-key-env: %s holds a control character", f.apiKeyEnv)
	}
	out, err := prepareOutput(cfg.OutputDir, f.overwrite)
	if err != nil {
		return err
	}
	f.out = out
	if err := f.images.prepare(cfg, cfg.OutputDir, stderr); err != nil {
		return err
	}
	if err := loadAdapters(ctx, cfg, stderr); err != nil {
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
	if errors.Is(err, syscall.ECONNREFUSED) {
		// Skipping the check cannot help: the load would be refused too.
		return fmt.Errorf("preflight: %w; start the engine or correct --base-url", err)
	}
	if err != nil {
		return fmt.Errorf("preflight: %w (--skip-preflight skips this check)", err)
	}
	return nil
}
