package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// syntheticRowsWithoutCount is how many rows --prompt-tokens generates
// when --count does not say how many arrivals there are (vllm bench
// serve's default --num-prompts); a longer run cycles them.
const syntheticRowsWithoutCount = 1000

// syntheticFlags generate the workload in memory with the fixed
// generator, in place of a --workload file: --prompt-tokens and
// --max-tokens (vllm bench serve's --random-input-len and
// --random-output-len, and --output-tokens, are their aliases), shaped
// by the stdevs and the shared prefix.
type syntheticFlags struct {
	promptTokens, maxTokens, prefixTokens syntheticValue[int]
	promptStdev, maxStdev                 syntheticValue[float64]
}

func (s *syntheticFlags) register(fs *flag.FlagSet) {
	s.promptTokens.register(fs, "generate the rows in memory in place of --workload: every prompt `N` tokens (with --max-tokens; seeded by --seed)",
		"prompt-tokens", "random-input-len")
	s.maxTokens.register(fs, "with --prompt-tokens: every generated row's output cap, `N` tokens, forced with ignore_eos",
		"max-tokens", "output-tokens", "random-output-len")
	s.promptStdev.register(fs, "with --prompt-tokens: spread the prompt lengths normally around --prompt-tokens with standard deviation `SD` tokens, truncated at 1 token (default 0: all exact)",
		"prompt-tokens-stdev")
	s.maxStdev.register(fs, "with --max-tokens: spread the output caps normally around --max-tokens with standard deviation `SD` tokens, truncated at 1 token (default 0: all exact)",
		"max-tokens-stdev")
	s.prefixTokens.register(fs, "with --prompt-tokens: every prompt begins with the same `N` tokens, the rest of it its own",
		"prefix-tokens")
}

// given reports whether any of the flags was given.
func (s *syntheticFlags) given() bool {
	return s.promptTokens.name != "" || s.maxTokens.name != "" || s.shaped() != ""
}

// shaped is the name of the first shaping flag given (a stdev or the
// prefix), "" when none was.
func (s *syntheticFlags) shaped() string {
	for _, name := range []string{s.promptStdev.name, s.maxStdev.name, s.prefixTokens.name} {
		if name != "" {
			return name
		}
	}
	return ""
}

// check refuses a bad combination or value, naming the flag: a workload
// file beside them, one length without the other, a shaping flag
// without the lengths, a length below 1, a negative stdev, a prefix that
// leaves no room for a prompt's own tokens, an endpoint that takes no
// prompt.
func (s *syntheticFlags) check(workload string, endpoint record.Endpoint) error {
	p, m := s.promptTokens, s.maxTokens
	switch {
	case workload != "" && s.given():
		return fmt.Errorf("--workload and --%s: give one, not both (--prompt-tokens and --max-tokens generate the rows in place of a file)", s.firstGiven())
	case p.name == "" && m.name != "":
		return fmt.Errorf("--%s needs --prompt-tokens: the generated rows need both lengths", m.name)
	case p.name != "" && m.name == "":
		return fmt.Errorf("--%s needs --max-tokens: the generated rows need both lengths", p.name)
	case p.name == "" && s.shaped() != "":
		return fmt.Errorf("--%s shapes the rows --prompt-tokens and --max-tokens generate: give them too", s.shaped())
	case p.name == "":
		return nil
	case p.v < 1:
		return fmt.Errorf("--%s: want at least 1 token, got %d", p.name, p.v)
	case m.v < 1:
		return fmt.Errorf("--%s: want at least 1 token, got %d", m.name, m.v)
	}
	for _, sd := range []syntheticValue[float64]{s.promptStdev, s.maxStdev} {
		if sd.name != "" {
			if err := checkFloat(sd.name, sd.v, 0, math.Inf(1)); err != nil {
				return err
			}
		}
	}
	if err := checkNonNegativeInt("prefix-tokens", s.prefixTokens.v); err != nil {
		return err
	}
	if s.prefixTokens.v >= p.v {
		return fmt.Errorf("--prefix-tokens: want fewer tokens than --%s (%d), got %d", p.name, p.v, s.prefixTokens.v)
	}
	if api, _ := record.APIOf(endpoint); !api.FirstToken {
		kind := "rerank"
		if endpoint == record.EndpointEmbeddings {
			kind = "embeddings"
		}
		return fmt.Errorf("--%s generates prompts, which --endpoint %s does not take: write its rows with servebench workload generate %s and give --workload", p.name, endpoint, kind)
	}
	return nil
}

// firstGiven is the name of the first synthetic flag given.
func (s *syntheticFlags) firstGiven() string {
	for _, name := range []string{s.promptTokens.name, s.maxTokens.name, s.shaped()} {
		if name != "" {
			return name
		}
	}
	return ""
}

// generator is the fixed generator the flags declare, with rows rows and
// the seed seed.
func (s *syntheticFlags) generator(rows int, seed uint64) fixtures.FixedShape {
	return fixtures.FixedShape{
		Seed: seed, Requests: rows, PromptTokens: s.promptTokens.v, MaxTokens: s.maxTokens.v,
		PromptTokensStdev: s.promptStdev.v, MaxTokensStdev: s.maxStdev.v, PrefixTokens: s.prefixTokens.v,
	}
}

// syntheticName names a generated workload by its generator and the
// parameters that made it, e.g.
// "fixed:prompt_tokens=256,max_tokens=128,requests=100,seed=1": what
// the schedule and the report give as the workload in place of a path.
func syntheticName(g fixtures.FixedShape) string {
	params := []string{"prompt_tokens=" + strconv.Itoa(g.PromptTokens), "max_tokens=" + strconv.Itoa(g.MaxTokens)}
	if g.PromptTokensStdev != 0 {
		params = append(params, "prompt_tokens_stdev="+strconv.FormatFloat(g.PromptTokensStdev, 'g', -1, 64))
	}
	if g.MaxTokensStdev != 0 {
		params = append(params, "max_tokens_stdev="+strconv.FormatFloat(g.MaxTokensStdev, 'g', -1, 64))
	}
	if g.PrefixTokens != 0 {
		params = append(params, "prefix_tokens="+strconv.Itoa(g.PrefixTokens))
	}
	params = append(params, "requests="+strconv.Itoa(g.Requests), "seed="+strconv.FormatUint(g.Seed, 10))
	return "fixed:" + strings.Join(params, ",")
}

// generateWorkload writes the generator's rows as JSONL and parses them
// back, so that the workload's hash is that of the exact bytes, as for a
// file.
func generateWorkload(g fixtures.FixedShape) (*schedule.Workload, error) {
	var buf bytes.Buffer
	if _, err := fixtures.Generate(&buf, g); err != nil {
		return nil, fmt.Errorf("--prompt-tokens: %w", err)
	}
	return schedule.ParseWorkload(syntheticName(g), buf.Bytes())
}

// loadWorkload is the run's workload: --workload's file, or the rows
// the synthetic flags generate, one per arrival and warmup request when
// --count gives their number (else syntheticRowsWithoutCount), seeded by
// --seed.
func (f *runFlags) loadWorkload() (*schedule.Workload, error) {
	if f.synthetic.promptTokens.name == "" {
		return schedule.LoadWorkload(f.workload)
	}
	rows := syntheticRowsWithoutCount
	if f.count > 0 {
		rows = f.count + f.warmup
	}
	if f.seed < 0 {
		return nil, fmt.Errorf("--seed: the rows --%s generates need a seed of 0 or more, got %d", f.synthetic.promptTokens.name, f.seed)
	}
	return generateWorkload(f.synthetic.generator(rows, uint64(f.seed)))
}

// syntheticValue is one synthetic flag's value, settable under its name
// and its aliases; name is the one it was given under ("" when not
// given), so that an error names the flag as the command line wrote it.
type syntheticValue[T int | float64] struct {
	v    T
	name string
}

// register registers the value under each name; the first is the flag,
// the others its aliases.
func (v *syntheticValue[T]) register(fs *flag.FlagSet, usage string, names ...string) {
	argName, _ := flag.UnquoteUsage(&flag.Flag{Usage: usage, Value: syntheticFlagName[T]{}})
	fs.Var(syntheticFlagName[T]{v, names[0]}, names[0], usage)
	for _, alias := range names[1:] {
		fs.Var(syntheticFlagName[T]{v, alias}, alias, "the same as --"+names[0]+" `"+argName+"`")
	}
}

// syntheticFlagName is a syntheticValue under one of its names.
type syntheticFlagName[T int | float64] struct {
	target *syntheticValue[T]
	name   string
}

// String is the value, for the flag package.
func (n syntheticFlagName[T]) String() string {
	if n.target == nil || n.target.name == "" {
		return ""
	}
	return fmt.Sprint(n.target.v)
}

// Set parses s as the value and records the name it was given under.
func (n syntheticFlagName[T]) Set(s string) error {
	var v T
	var err error
	switch p := any(&v).(type) {
	case *int:
		*p, err = strconv.Atoi(s)
	case *float64:
		*p, err = strconv.ParseFloat(s, 64)
	}
	if err != nil {
		return fmt.Errorf("want a number, got %q", s)
	}
	n.target.v, n.target.name = v, n.name
	return nil
}
