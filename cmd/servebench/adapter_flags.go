package main

import (
	"flag"
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
)

// adapterFlags hold the LoRA adapter mix and how an adapter is named in
// a request.
type adapterFlags struct {
	mix, form, assignment string
}

func (f *adapterFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.mix, "adapters", "",
		`LoRA adapter mix NAME=WEIGHT,... (weights positive, normalised to sum to 1; "base" is the base model): each request's adapter is drawn from the seed and sent as its model; report.json breaks the run down by adapter`)
	fs.StringVar(&f.assignment, "adapter-assignment", schedule.AssignRandom,
		`how --adapters assigns each request its adapter: random (drawn from the seed) or round-robin (interleaved in the mix's proportions)`)
	fs.StringVar(&f.form, "adapter-form", "name",
		`how an adapter is named in "model": name (vLLM) or base:adapter (SGLang, MODEL:ADAPTER)`)
}

// apply sets the run's adapter mix and the client's adapter form.
func (f *adapterFlags) apply(cfg *servebench.RunConfig) error {
	switch f.form {
	case "name":
		cfg.Client.AdapterForm = openai.AdapterByName
	case string(openai.AdapterBaseColon):
		cfg.Client.AdapterForm = openai.AdapterBaseColon
	default:
		return fmt.Errorf("--adapter-form: want name or base:adapter, got %q", f.form)
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
	cfg.Adapters = mix
	return nil
}
