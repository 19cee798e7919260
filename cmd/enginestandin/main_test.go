package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestPersonalityFromTheCommandName(t *testing.T) {
	cases := []struct {
		argv   []string
		engine string
		args   []string
	}{
		{[]string{"/usr/local/bin/vllm", "serve", "--model", "m"}, "vllm", []string{"--model", "m"}},
		{[]string{"python3", "-m", "sglang.launch_server", "--model-path", "m"}, "sglang", []string{"--model-path", "m"}},
		{[]string{"text-generation-launcher", "--model-id", "m"}, "tgi", []string{"--model-id", "m"}},
		{[]string{"llama-server", "-m", "/m.gguf"}, "llamacpp", []string{"-m", "/m.gguf"}},
		{[]string{"./enginestandin", "vllm", "serve"}, "vllm", []string{}},
	}
	for _, c := range cases {
		p, args, err := personality(c.argv)
		if err != nil || p.Engine != c.engine || !reflect.DeepEqual(args, c.args) {
			t.Errorf("personality(%q) = %q %q %v, want %q %q", c.argv, p.Engine, args, err, c.engine, c.args)
		}
	}
	for _, argv := range [][]string{{"vllm", "--model", "m"}, {"python3", "-m", "vllm"}, {"ollama", "serve"}} {
		if _, _, err := personality(argv); err == nil || !strings.Contains(err.Error(), "is none of") {
			t.Errorf("personality(%q) error %v, want a refusal", argv, err)
		}
	}
}
