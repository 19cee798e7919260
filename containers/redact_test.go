package containers

import (
	"reflect"
	"testing"
)

func TestRedact(t *testing.T) {
	args := []string{"--api-key", "sk-1", "--api-key=sk-1", "--model", "m"}
	got := Redact(args, "sk-1")
	want := []string{"--api-key", Redacted, "--api-key=" + Redacted, "--model", "m"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Redact = %q, want %q", got, want)
	}
	if args[1] != "sk-1" {
		t.Error("Redact changed its input")
	}
	if got := Redact(args, ""); !reflect.DeepEqual(got, args) {
		t.Errorf("empty secret changed args: %q", got)
	}
	if Redact(nil, "k") != nil {
		t.Error("nil in, non-nil out")
	}
}
