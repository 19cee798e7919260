package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/servebench/servebench/internal/numfmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
)

// adapterFlags hold the LoRA adapter mix and how an adapter is named in
// a request.
type adapterFlags struct {
	mix, form, assignment string
	// load is --load-adapters, loadTimeout --adapter-load-timeout.
	load        string
	loadTimeout time.Duration
	// keep is --keep-adapters.
	keep bool
}

func (f *adapterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.mix, "adapters", "",
		`LoRA adapter mix NAME=WEIGHT,... (weights positive, normalised to sum to 1; "base" is the base model): each request's adapter is drawn from the seed and sent as its model; report.json breaks the run down by adapter`)
	fs.StringVar(&f.assignment, "adapter-assignment", schedule.AssignRandom,
		`how --adapters assigns each request its adapter: random (drawn from the seed) or round-robin (interleaved in the mix's proportions)`)
	fs.StringVar(&f.form, "adapter-form", "name",
		`how an adapter is named in "model": name (vLLM) or base:adapter (SGLang, MODEL:ADAPTER)`)
	fs.StringVar(&f.load, "load-adapters", "",
		`LoRA adapters NAME=PATH,... to load into the engine before the preflight and the load, one after another, each timed (vLLM: POST /v1/load_lora_adapter, needs VLLM_ALLOW_RUNTIME_LORA_UPDATING=True; SGLang with --adapter-form base:adapter: POST /load_lora_adapter); a failed load stops before any load; report.json adapter_loads`)
	fs.DurationVar(&f.loadTimeout, "adapter-load-timeout", openai.DefaultAdapterLoadTimeout,
		`deadline for each --load-adapters call`)
	fs.BoolVar(&f.keep, "keep-adapters", false,
		`leave the --load-adapters adapters in the engine at the end (by default they are unloaded, so that a rerun finds the engine as this run did)`)
}

// apply sets the run's adapter mix and the client's adapter form.
func (f *adapterFlags) apply(s *servebench.Settings) error {
	switch f.form {
	case "name":
		s.Client.AdapterForm = openai.AdapterByName
	case string(openai.AdapterBaseColon):
		s.Client.AdapterForm = openai.AdapterBaseColon
	default:
		return fmt.Errorf("--adapter-form: want name or base:adapter, got %q", f.form)
	}
	if err := f.applyLoads(s); err != nil {
		return err
	}
	if f.mix == "" {
		if f.assignment != schedule.AssignRandom {
			return fmt.Errorf("--adapter-assignment: it assigns the adapters of --adapters, and there are none")
		}
		return nil
	}
	mix, err := schedule.ParseAdapterMix(f.mix)
	if err != nil {
		return fmt.Errorf("--adapters: %w", err)
	}
	if err := mix.SetAssignment(f.assignment); err != nil {
		return fmt.Errorf("--adapter-assignment: %w", err)
	}
	s.LoRA.Mix = mix
	return nil
}

// applyLoads sets the adapters to load before the run and the deadline of
// each load call.
func (f *adapterFlags) applyLoads(s *servebench.Settings) error {
	if f.loadTimeout <= 0 {
		return fmt.Errorf("--adapter-load-timeout: want a duration above 0, got %v", f.loadTimeout)
	}
	s.LoRA.LoadTimeout, s.LoRA.Keep = f.loadTimeout, f.keep
	if f.load == "" {
		return nil
	}
	loads, err := openai.ParseAdapterLoads(f.load)
	if err != nil {
		return fmt.Errorf("--load-adapters: %w", err)
	}
	if s.Shard != nil && s.Shard.Count > 1 {
		return fmt.Errorf("--load-adapters: every shard would load the adapters into the one engine, which refuses a second load; load them once before the shards start")
	}
	s.LoRA.Load = loads
	return nil
}

// unloadAdapters unloads what loadAdapters loaded (unless --keep-adapters)
// when the command is over, and says so.
func unloadAdapters(cfg *servebench.RunConfig, stderr io.Writer) {
	if len(cfg.LoRA.Loaded) == 0 || cfg.LoRA.Keep {
		return
	}
	if err := servebench.UnloadAdapters(context.Background(), *cfg, cfg.LoRA.Loaded); err != nil {
		fmt.Fprintf(stderr, "warning: %v (the engine still serves them; a rerun's load will be refused until they are unloaded)\n", err)
		return
	}
	names := make([]string, len(cfg.LoRA.Loaded))
	for i, l := range cfg.LoRA.Loaded {
		names[i] = l.Adapter
	}
	fmt.Fprintf(stderr, "adapters unloaded: %s\n", strings.Join(names, ", "))
}

// loadAdapters loads the run's adapters before the preflight, so that the
// preflight finds them in the engine's model list, and says what each
// load took.
func loadAdapters(ctx context.Context, cfg *servebench.RunConfig, stderr io.Writer) error {
	if len(cfg.LoRA.Load) == 0 || cfg.LoRA.Loaded != nil {
		return nil
	}
	loads, err := servebench.LoadAdapters(ctx, *cfg)
	for _, l := range loads {
		fmt.Fprintf(stderr, "adapter %s loaded in %s ms (POST %s, HTTP %d)\n", l.Adapter, numfmt.Compact(l.LoadMS), l.Route, l.Status)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted while loading the adapters: nothing of the run was sent: %w", err)
		}
		return err
	}
	cfg.LoRA.Loaded = loads
	return nil
}
