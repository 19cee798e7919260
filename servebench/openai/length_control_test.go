package openai

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func TestParseLengthControl(t *testing.T) {
	for in, want := range map[string]LengthControl{
		"": LengthIgnoreEOS, "ignore_eos": LengthIgnoreEOS, " ignore_eos+min_tokens ": LengthIgnoreEOSMinTokens,
		"unsupported": LengthUnsupported,
	} {
		got, err := ParseLengthControl(in)
		if err != nil || got != want {
			t.Errorf("ParseLengthControl(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseLengthControl("min_new_tokens"); err == nil || err.Error() != `unknown length control "min_new_tokens": want one of ignore_eos, ignore_eos+min_tokens, unsupported` {
		t.Errorf("error %v", err)
	}
}

func TestLengthControlEnforces(t *testing.T) {
	forced := &record.Request{IgnoreEOS: true, MaxTokens: 10}
	natural := &record.Request{MaxTokens: 10}
	for _, l := range []LengthControl{"", LengthIgnoreEOS, LengthIgnoreEOSMinTokens} {
		if e := l.Enforces(forced); e == nil || !*e {
			t.Errorf("%q: forced row not enforced", l)
		}
		if e := l.Enforces(natural); e != nil {
			t.Errorf("%q: a natural row has an enforcement flag", l)
		}
	}
	if e := LengthUnsupported.Enforces(forced); e == nil || *e {
		t.Error("unsupported: a forced row must be marked as not enforced")
	}
	if LengthControl("bogus").Valid() || !LengthControl("").Valid() {
		t.Error("Valid")
	}
}

func TestLengthControlFor(t *testing.T) {
	for engine, want := range map[string]LengthControl{
		"vLLM": LengthIgnoreEOSMinTokens, "sglang": LengthIgnoreEOSMinTokens, "llama.cpp": LengthIgnoreEOS, "llamacpp": LengthIgnoreEOS,
		"sim": LengthIgnoreEOS, "simengine": LengthIgnoreEOS, "tgi": LengthUnsupported, "Ollama": LengthUnsupported,
	} {
		if got, ok := LengthControlFor(engine); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", engine, got, ok, want)
		}
	}
	if _, ok := LengthControlFor("tensorrt-llm"); ok {
		t.Error("an unknown engine got a length control")
	}
}

func TestLengthFields(t *testing.T) {
	forced := &record.Request{IgnoreEOS: true, MaxTokens: 10}
	cases := []struct {
		l             LengthControl
		req           *record.Request
		ignore, floor bool
	}{
		{"", forced, true, false},
		{LengthIgnoreEOS, forced, true, false},
		{LengthIgnoreEOSMinTokens, forced, true, true},
		{LengthIgnoreEOSMinTokens, &record.Request{IgnoreEOS: true}, true, false},
		{LengthUnsupported, forced, false, false},
		{LengthIgnoreEOSMinTokens, &record.Request{MaxTokens: 10}, false, false},
	}
	for _, c := range cases {
		ignore, floor := c.l.lengthFields(c.req)
		if ignore != c.ignore || floor != c.floor {
			t.Errorf("%q %+v: %v %v, want %v %v", c.l, c.req, ignore, floor, c.ignore, c.floor)
		}
	}
}
