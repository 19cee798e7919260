package suites_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/suites"
)

// TestContractRefusesAModelNameWithAControlCharacter: a model name that
// would write an escape sequence to the console is refused at load, with
// the file, line and field.
func TestContractRefusesAModelNameWithAControlCharacter(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"name: m\nbase_url: http://127.0.0.1:1\nmodel: \"tiny\\e[2J\"\nworkload:\n  file: workload.jsonl\narrival:\n  process: constant\n  rate: 5\ncount: 10\n",
			"testdata/inline.yaml:3:8: model: holds the control character U+001B at byte 4"},
		{"name: m\nengine:\n  kind: simengine\n  model: \"a\\tb\"\nworkload:\n  file: workload.jsonl\narrival:\n  process: constant\n  rate: 5\ncount: 10\n",
			"testdata/inline.yaml:4:10: engine.model: holds the control character U+0009 at byte 1"},
	} {
		_, err := suites.Parse("testdata/inline.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}
