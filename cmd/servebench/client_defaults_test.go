package main

import (
	"flag"
	"io"
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/openai"
)

// The command's client, with no client flag given, is exactly the
// library's NewClient: the two cannot drift apart.
func TestRunCommandClientIsNewClientByDefault(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var f runFlags
	f.register(fs)
	wl := writeWorkload(t, twoRows)
	if err := fs.Parse([]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl,
		"--output", t.TempDir(), "--rate", "1", "--count", "1"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := f.config(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := openai.NewClient("http://127.0.0.1:1", "m")
	if !reflect.DeepEqual(cfg.Client, want) {
		t.Fatalf("command's client %#v\nNewClient        %#v", *cfg.Client, *want)
	}
	if want.NoStream || want.TotalTimeout == 0 || want.IdleTimeout == 0 {
		t.Fatalf("NewClient %#v: want streaming with total and idle deadlines", *want)
	}
}
