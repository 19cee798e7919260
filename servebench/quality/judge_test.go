package quality

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func sp(s string) *string   { return &s }
func ip(i int) *int         { return &i }
func fp(f float64) *float64 { return &f }

// schemaOf parses a JSON Schema literal the way a workload row carries it.
func schemaOf(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("schema literal: %v", err)
	}
	return m
}

// judgeCase is one response judged against one expectation.
type judgeCase struct {
	name     string
	exp      *record.Expectation
	resp     Response
	pass     bool
	check    string // first failed check
	evidence string // its exact evidence
}

func runJudgeCases(t *testing.T, cases []judgeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Judge(c.exp, c.resp)
			if v == nil {
				t.Fatalf("Judge returned nil (unscored) for a declared expectation")
			}
			if v.Pass != c.pass || v.Check != c.check || v.Evidence != c.evidence {
				t.Fatalf("verdict = {pass %v, check %q, evidence %q}\nwant    {pass %v, check %q, evidence %q}",
					v.Pass, v.Check, v.Evidence, c.pass, c.check, c.evidence)
			}
			if c.pass && len(v.Failures) != 0 {
				t.Fatalf("a passing verdict lists failures: %+v", v.Failures)
			}
			if !c.pass && (len(v.Failures) == 0 || v.Failures[0] != (record.Failure{Check: c.check, Evidence: c.evidence})) {
				t.Fatalf("Failures[0] = %+v, want the first failure", v.Failures)
			}
		})
	}
}

func TestJudgeWithoutExpectationIsUnscored(t *testing.T) {
	if v := Judge(nil, Response{Text: "anything"}); v != nil {
		t.Fatalf("nil expectation: got %+v, want nil (unscored)", v)
	}
	if v := Judge(&record.Expectation{}, Response{Text: "anything"}); v != nil {
		t.Fatalf("expectation declaring no check: got %+v, want nil (unscored)", v)
	}
}

func TestJudgeExact(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{name: "equal after trimming", exp: &record.Expectation{Exact: sp("Paris")}, resp: Response{Text: "  Paris\n"}, pass: true},
		{name: "different", exp: &record.Expectation{Exact: sp("Paris")}, resp: Response{Text: "Lyon"},
			check: "exact", evidence: `text "Lyon", want "Paris"`},
		{name: "case matters", exp: &record.Expectation{Exact: sp("Paris")}, resp: Response{Text: "paris"},
			check: "exact", evidence: `text "paris", want "Paris"`},
	})
}

func TestJudgeRegex(t *testing.T) {
	re := `(?i)\b(critical|high|medium|low)\b`
	runJudgeCases(t, []judgeCase{
		{name: "match", exp: &record.Expectation{Regex: sp(re)}, resp: Response{Text: "Severity: HIGH."}, pass: true},
		{name: "no match", exp: &record.Expectation{Regex: sp(re)}, resp: Response{Text: "looks fine"},
			check: "regex", evidence: `no match for /(?i)\b(critical|high|medium|low)\b/ in text "looks fine"`},
		{name: "broken expectation", exp: &record.Expectation{Regex: sp(`(`)}, resp: Response{Text: "x"},
			check: "regex", evidence: "the expectation's regex does not compile: error parsing regexp: missing closing ): `(`"},
	})
}

func TestJudgeLongTextIsCutInEvidence(t *testing.T) {
	text := strings.Repeat("a", 500)
	v := Judge(&record.Expectation{Exact: sp("b")}, Response{Text: text})
	want := `text "` + strings.Repeat("a", 160) + `"… (500 bytes), want "b"`
	if v.Evidence != want {
		t.Fatalf("evidence = %q\nwant       %q", v.Evidence, want)
	}
}

func TestJudgeNumber(t *testing.T) {
	runJudgeCases(t, []judgeCase{
		{name: "marker", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "6 times 7 is 42.\n#### 42"}, pass: true},
		{name: "first number after the last marker", exp: &record.Expectation{Number: fp(18)},
			resp: Response{Text: "#### 3 was a draft\n#### 18 dollars, not 20"}, pass: true},
		{name: "thousands separator", exp: &record.Expectation{Number: fp(1234)}, resp: Response{Text: "#### 1,234"}, pass: true},
		{name: "negative", exp: &record.Expectation{Number: fp(-3)}, resp: Response{Text: "#### -3"}, pass: true},
		{name: "decimal", exp: &record.Expectation{Number: fp(2.5)}, resp: Response{Text: "#### 2.50"}, pass: true},
		{name: "no marker, last number", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "first 40, then 42"}, pass: true},
		{name: "wrong after marker", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "it is 42 #### 41"},
			check: "number", evidence: `answer 41 after the last "####", want 42`},
		{name: "wrong last number", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "42 or maybe 7"},
			check: "number", evidence: `answer 7 (the last number; no "####" marker), want 42`},
		{name: "marker without number", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "42 #### forty-two"},
			check: "number", evidence: `no number after the last "####" in text "42 #### forty-two", want 42`},
		{name: "no number at all", exp: &record.Expectation{Number: fp(42)}, resp: Response{Text: "I do not know"},
			check: "number", evidence: `no number in text "I do not know" (no "####" marker), want 42`},
	})
}

const statusSchema = `{"type":"object","properties":{"status":{"enum":["investigating","resolved"]},
	"minutes":{"type":"integer","minimum":0}},"required":["status","minutes"],"additionalProperties":false}`

func TestJudgeJSONSchema(t *testing.T) {
	s := schemaOf(t, statusSchema)
	runJudgeCases(t, []judgeCase{
		{name: "valid", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: ` {"status":"resolved","minutes":5} `}, pass: true},
		{name: "two violations, sorted", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: `{"status":"done","minutes":-1}`},
			check: "json_schema", evidence: "JSON answer fails the schema: at '/minutes': minimum: got -1, want 0; at '/status': value must be one of 'investigating', 'resolved'"},
		{name: "missing property", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: `{"status":"resolved"}`},
			check: "json_schema", evidence: "JSON answer fails the schema: at '': missing property 'minutes'"},
		{name: "integer required", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: `{"status":"resolved","minutes":1.5}`},
			check: "json_schema", evidence: "JSON answer fails the schema: at '/minutes': got number, want integer"},
		{name: "code fence is not JSON", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: "```json\n{}\n```"},
			check: "json_schema", evidence: "text is not JSON (invalid character '`' looking for beginning of value): \"```json\\n{}\\n```\""},
		{name: "trailing text is not JSON", exp: &record.Expectation{JSONSchema: s}, resp: Response{Text: `{"status":"resolved","minutes":1} done`},
			check: "json_schema", evidence: `text is not JSON (invalid character after top-level value): "{\"status\":\"resolved\",\"minutes\":1} done"`},
	})
}

const pageSchema = `{"type":"object","properties":{"service":{"const":"checkout"},
	"severity":{"enum":["critical","high","medium","low"]},"summary":{"type":"string","minLength":1}},
	"required":["service","severity","summary"],"additionalProperties":false}`

func TestJudgeToolArgumentsSchema(t *testing.T) {
	s := schemaOf(t, pageSchema)
	good := record.ToolCall{Name: "page_oncall", Arguments: `{"service":"checkout","severity":"high","summary":"5xx on pay"}`}
	runJudgeCases(t, []judgeCase{
		{name: "valid", exp: &record.Expectation{ToolArgumentsSchema: s}, resp: Response{ToolCalls: []record.ToolCall{good}}, pass: true},
		{name: "no tool call", exp: &record.Expectation{ToolArgumentsSchema: s}, resp: Response{Text: "I would page someone."},
			check: "tool_arguments_schema", evidence: "no tool call in the response"},
		{name: "malformed arguments", exp: &record.Expectation{ToolArgumentsSchema: s},
			resp:  Response{ToolCalls: []record.ToolCall{{Name: "page_oncall", Arguments: `{"service":"checkout"`}}},
			check: "tool_arguments_schema", evidence: `tool call 1 (page_oncall): arguments are not JSON (unexpected EOF): "{\"service\":\"checkout\""`},
		{name: "second call wrong", exp: &record.Expectation{ToolArgumentsSchema: s},
			resp:  Response{ToolCalls: []record.ToolCall{good, {Name: "page_oncall", Arguments: `{"service":"search","severity":"high","summary":"x"}`}}},
			check: "tool_arguments_schema", evidence: "tool call 2 (page_oncall): arguments fail the schema: at '/service': value must be 'checkout'"},
	})
}

func TestJudgeFinishReasonAndOutputTokens(t *testing.T) {
	bounds := &record.Expectation{MinOutputTokens: ip(10), MaxOutputTokens: ip(20)}
	runJudgeCases(t, []judgeCase{
		{name: "finish reason", exp: &record.Expectation{FinishReason: sp("stop")}, resp: Response{FinishReason: "stop"}, pass: true},
		{name: "truncated", exp: &record.Expectation{FinishReason: sp("stop")}, resp: Response{FinishReason: "length"},
			check: "finish_reason", evidence: `finish_reason is "length", want "stop"`},
		{name: "within bounds", exp: bounds, resp: Response{OutputTokens: ip(10)}, pass: true},
		{name: "upper bound inclusive", exp: bounds, resp: Response{OutputTokens: ip(20)}, pass: true},
		{name: "too short", exp: bounds, resp: Response{OutputTokens: ip(9)},
			check: "min_output_tokens", evidence: "9 output tokens, want at least 10"},
		{name: "too long", exp: bounds, resp: Response{OutputTokens: ip(21)},
			check: "max_output_tokens", evidence: "21 output tokens, want at most 20"},
		{name: "count unknown", exp: &record.Expectation{MaxOutputTokens: ip(20)}, resp: Response{},
			check: "max_output_tokens", evidence: "output token count unknown, want at most 20"},
	})
}

func TestJudgeRunsEveryCheckAndListsEveryFailure(t *testing.T) {
	exp := &record.Expectation{
		Regex:           sp(`#### \d+`),
		Number:          fp(42),
		FinishReason:    sp("stop"),
		MinOutputTokens: ip(3),
	}
	v := Judge(exp, Response{Text: "#### 41", FinishReason: "length", OutputTokens: ip(3)})
	wantChecks := []string{"finish_reason", "min_output_tokens", "regex", "number"}
	if !reflect.DeepEqual(v.Checks, wantChecks) {
		t.Fatalf("Checks = %v, want %v", v.Checks, wantChecks)
	}
	wantFailures := []record.Failure{
		{Check: "finish_reason", Evidence: `finish_reason is "length", want "stop"`},
		{Check: "number", Evidence: `answer 41 after the last "####", want 42`},
	}
	if v.Pass || !reflect.DeepEqual(v.Failures, wantFailures) || v.Check != "finish_reason" {
		t.Fatalf("verdict = %+v, want failures %+v", v, wantFailures)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"pass":false,"check":"finish_reason","evidence":"finish_reason is \"length\", want \"stop\"",` +
		`"checks":["finish_reason","min_output_tokens","regex","number"],` +
		`"failures":[{"check":"finish_reason","evidence":"finish_reason is \"length\", want \"stop\""},` +
		`{"check":"number","evidence":"answer 41 after the last \"####\", want 42"}]}`
	if string(raw) != want {
		t.Fatalf("JSON = %s\nwant   %s", raw, want)
	}
}

func TestSchemasAreCompiledOncePerDistinctSchema(t *testing.T) {
	a := schemaOf(t, `{"type":"object","required":["x"]}`)
	b := schemaOf(t, `{"required":["x"],"type":"object"}`) // same schema, keys in another order
	c := schemaOf(t, `{"type":"object","required":["y"]}`)
	sa, err := compileSchema(a)
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := compileSchema(b)
	sc, _ := compileSchema(c)
	if sa != sb {
		t.Fatalf("the same schema was compiled twice")
	}
	if sa == sc {
		t.Fatalf("different schemas share a compiled form")
	}
}

func TestSchemasCannotLoadOtherDocuments(t *testing.T) {
	for _, ref := range []string{"http://127.0.0.1:1/schema.json", "file:///etc/passwd", "other.json"} {
		exp := &record.Expectation{JSONSchema: map[string]any{"$ref": ref}}
		err := Validate(exp)
		if err == nil || !strings.Contains(err.Error(), "expectations must be self-contained") {
			t.Fatalf("$ref %s: Validate() = %v, want a refusal", ref, err)
		}
		v := Judge(exp, Response{Text: "{}"})
		if v.Pass || v.Check != "json_schema" || !strings.HasPrefix(v.Evidence, "the expectation's json_schema does not compile: ") {
			t.Fatalf("$ref %s: verdict %+v", ref, v)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		exp  *record.Expectation
		want string
	}{
		{&record.Expectation{Regex: sp(`[`)}, "regex: error parsing regexp: missing closing ]: `[`"},
		{&record.Expectation{JSONSchema: map[string]any{"type": "nope"}}, "json_schema: "},
		{&record.Expectation{ToolArgumentsSchema: map[string]any{"minimum": "zero"}}, "tool_arguments_schema: "},
		{&record.Expectation{FinishReason: sp("")}, "finish_reason: must not be empty"},
		{&record.Expectation{MinOutputTokens: ip(-1)}, "min_output_tokens: must not be negative, got -1"},
		{&record.Expectation{MaxOutputTokens: ip(-2)}, "max_output_tokens: must not be negative, got -2"},
		{&record.Expectation{MinOutputTokens: ip(9), MaxOutputTokens: ip(3)}, "min_output_tokens: 9 is above max_output_tokens 3"},
	}
	for _, c := range cases {
		err := Validate(c.exp)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want prefix %q", c.exp, err, c.want)
		}
	}
	ok := &record.Expectation{Regex: sp(`x`), Number: fp(1), JSONSchema: schemaOf(t, statusSchema), FinishReason: sp("stop"),
		MinOutputTokens: ip(1), MaxOutputTokens: ip(1)}
	if err := Validate(ok); err != nil {
		t.Fatalf("valid expectation: %v", err)
	}
	var none *record.Expectation
	if err := Validate(none); err != nil {
		t.Fatalf("nil expectation: %v", err)
	}
}

func TestExpectationFromWorkloadJSON(t *testing.T) {
	var exp record.Expectation
	row := `{"tool_arguments_schema":` + pageSchema + `,"finish_reason":"tool_calls"}`
	if err := json.Unmarshal([]byte(row), &exp); err != nil {
		t.Fatal(err)
	}
	v := Judge(&exp, Response{FinishReason: "tool_calls", ToolCalls: []record.ToolCall{
		{Name: "page_oncall", Arguments: `{"service":"checkout","severity":"urgent","summary":"x"}`}}})
	want := "tool call 1 (page_oncall): arguments fail the schema: at '/severity': value must be one of 'critical', 'high', 'medium', 'low'"
	if v.Pass || v.Check != "tool_arguments_schema" || v.Evidence != want {
		t.Fatalf("verdict %+v\nwant evidence %q", v, want)
	}
}

func TestJudgeIsSafeForConcurrentUse(t *testing.T) {
	exp := &record.Expectation{ToolArgumentsSchema: schemaOf(t, pageSchema), Regex: sp(`x`)}
	done := make(chan *record.Verdict)
	for i := 0; i < 8; i++ {
		go func() {
			done <- Judge(exp, Response{Text: "x", ToolCalls: []record.ToolCall{{Name: "page_oncall", Arguments: `{"service":"checkout","severity":"low","summary":"s"}`}}})
		}()
	}
	for i := 0; i < 8; i++ {
		if v := <-done; !v.Pass {
			t.Fatalf("verdict %+v", v)
		}
	}
}
