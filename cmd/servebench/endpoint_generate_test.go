package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// The command each API's catalog entry names for a workload of the other
// kind is a real one: run as given (into a temporary directory), it
// writes rows the endpoint takes.
func TestEveryAPIsGenerateCommandWritesRowsItTakes(t *testing.T) {
	for _, e := range record.Endpoints() {
		api, _ := record.APIOf(e)
		args := strings.Fields(api.Generate)
		if len(args) < 4 || args[0] != "servebench" || args[len(args)-2] != "--output" {
			t.Fatalf("%s: %q is not a servebench command ending in --output FILE", e, api.Generate)
		}
		path := filepath.Join(t.TempDir(), args[len(args)-1])
		args[len(args)-1] = path
		if code, _, stderr := runCLI(args[1:]...); code != 0 {
			t.Fatalf("%s: %q: exit %d: %s", e, api.Generate, code, stderr)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := schedule.ParseWorkload(filepath.Base(path), data)
		if err != nil {
			t.Fatal(err)
		}
		if err := openai.CheckWorkload(e, w); err != nil {
			t.Errorf("%s: the rows of %q do not fit: %v", e, api.Generate, err)
		}
	}
}

// An embeddings run on a text workload stops before any load and names
// the command that writes an embeddings workload.
func TestAnEmbeddingsRunOnATextWorkloadNamesTheGenerator(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	code, _, stderr := runCLI("run", "--endpoint", "embeddings", "--base-url", "http://127.0.0.1:1", "--model", "m",
		"--workload", wl, "--output", t.TempDir(), "--rate", "1", "--count", "2")
	want := "servebench run: run: " + wl + `: this workload has no inputs for the embeddings endpoint: generate one with "servebench workload generate embeddings --batch-size 1 --input-tokens 128 --output embeddings.jsonl"` + "\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
}
