package quality

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/servebench/servebench/servebench/record"
)

// schemaURL is the name an expectation's schema is compiled under (the
// .invalid domain never resolves). A schema may refer to its own parts
// ("#/$defs/x") but never loads another document: the compiler's loader
// refuses every URL, so a workload row cannot make the judge read files or
// reach the network.
const schemaURL = "https://servebench.invalid/expectation.json"

// compiledSchemas caches compiled schemas by the SHA-256 of their canonical
// JSON (encoding/json sorts object keys), so each distinct schema is
// compiled once however many rows or judgments use it.
var compiledSchemas sync.Map // [sha256.Size]byte -> *schemaEntry

// schemaEntry is one compiled schema or its compile error.
type schemaEntry struct {
	once   sync.Once
	schema *jsonschema.Schema
	err    error
}

// compileSchema returns the compiled form of schema, compiling it on first
// use.
func compileSchema(schema map[string]any) (*jsonschema.Schema, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	v, _ := compiledSchemas.LoadOrStore(sha256.Sum256(raw), &schemaEntry{})
	entry := v.(*schemaEntry)
	entry.once.Do(func() { entry.schema, entry.err = compileRaw(raw) })
	return entry.schema, entry.err
}

// compileRaw compiles a schema from its JSON text.
func compileRaw(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// refuseLoader refuses to load any referenced document.
type refuseLoader struct{}

// Load refuses url.
func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema refers to %s: expectations must be self-contained", url)
}

// compiledRegexps caches compiled regular expressions by their source.
var compiledRegexps sync.Map // string -> *regexpEntry

// regexpEntry is one compiled expression or its error.
type regexpEntry struct {
	re  *regexp.Regexp
	err error
}

// compileRegex returns the compiled form of expr.
func compileRegex(expr string) (*regexp.Regexp, error) {
	if v, ok := compiledRegexps.Load(expr); ok {
		e := v.(*regexpEntry)
		return e.re, e.err
	}
	re, err := regexp.Compile(expr)
	compiledRegexps.Store(expr, &regexpEntry{re: re, err: err})
	return re, err
}

// checkJSONAnswer validates the response text, parsed as JSON, against
// schema. The text must be one JSON value and nothing else (surrounding
// white space aside); a Markdown code fence around it is a failure.
func checkJSONAnswer(schema map[string]any, text string) (string, bool) {
	sch, err := compileSchema(schema)
	if err != nil {
		return "the expectation's json_schema does not compile: " + oneLine(err.Error()), false
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return fmt.Sprintf("text is not JSON (%s): %s", oneLine(err.Error()), quote(text)), false
	}
	if err := sch.Validate(doc); err != nil {
		return "JSON answer fails the schema: " + schemaFailure(err), false
	}
	return "", true
}

// checkToolArguments validates the arguments of every tool call against
// schema; at least one call must be present.
func checkToolArguments(schema map[string]any, calls []record.ToolCall) (string, bool) {
	sch, err := compileSchema(schema)
	if err != nil {
		return "the expectation's tool_arguments_schema does not compile: " + oneLine(err.Error()), false
	}
	if len(calls) == 0 {
		return "no tool call in the response", false
	}
	for i, call := range calls {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(call.Arguments))
		if err != nil {
			return fmt.Sprintf("tool call %d (%s): arguments are not JSON (%s): %s",
				i+1, call.Name, oneLine(err.Error()), quote(call.Arguments)), false
		}
		if err := sch.Validate(doc); err != nil {
			return fmt.Sprintf("tool call %d (%s): arguments fail the schema: %s", i+1, call.Name, schemaFailure(err)), false
		}
	}
	return "", true
}

// schemaFailure renders a validation error as one line: each innermost
// cause with its location in the instance, sorted, e.g.
// "at '/severity': value must be one of 'low', 'high'".
func schemaFailure(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return oneLine(err.Error())
	}
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, oneLine(e.Error()))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.Strings(leaves)
	return strings.Join(leaves, "; ")
}

// oneLine folds a multi-line message onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
