package llmdreport_test

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// schemaPath is the vendored llm-d Benchmark Report v0.2.1 schema (see
// testdata/llm-d/NOTICE for its source and licence).
const schemaPath = "testdata/llm-d/br_v0_2_1_json_schema.json"

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// compiledSchema compiles the vendored schema once, asserting formats
// (date-time) as well as structure.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open(schemaPath)
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		if schemaErr = c.AddResource("br_v0_2_1.json", doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile("br_v0_2_1.json")
	})
	if schemaErr != nil {
		t.Fatalf("compile %s: %v", schemaPath, schemaErr)
	}
	return schema
}

// validateFile validates a written report, JSON or YAML, against the
// schema and returns it decoded.
func validateFile(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".yaml") {
		if data, err = yaml.YAMLToJSON(data); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if err := compiledSchema(t).Validate(doc); err != nil {
		t.Fatalf("%s does not follow the llm-d Benchmark Report v0.2.1 schema: %v", path, err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The validation is not vacuous: the schema forbids unknown fields and
// checks unit strings.
func TestSchemaRejectsUnknownFieldsAndUnits(t *testing.T) {
	s := compiledSchema(t)
	for name, text := range map[string]string{
		"unknown top-level field": `{"version":"0.2.1","run":{"uid":"x"},"results":{},"extra":1}`,
		"unknown run field":       `{"run":{"uid":"x","servebench":1},"results":{}}`,
		"unit not in the enum":    `{"run":{"uid":"x"},"results":{"request_performance":{"aggregate":{"latency":{"time_to_first_token":{"units":"msec","mean":1}}}}}}`,
		"missing run uid":         `{"run":{},"results":{}}`,
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		if s.Validate(doc) == nil {
			t.Errorf("%s: the schema accepted %s", name, text)
		}
	}
}
