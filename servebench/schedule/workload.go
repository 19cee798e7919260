package schedule

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/servebench/servebench/servebench/quality"
	"github.com/servebench/servebench/servebench/record"
)

// Workload is a frozen list of requests with the hash of the exact bytes it
// was read from. The hash travels with every schedule and report.
type Workload struct {
	// Name is where the workload came from (a file path, usually).
	Name string
	// SHA256 is the hex SHA-256 of the exact bytes.
	SHA256 string
	// Requests are the rows in file order.
	Requests []record.Request
	// PerRequest, when not nil, gives the request each scheduled entry
	// sends in place of its row: a synthetic image pool draws every
	// request's images so (media.Pool.Attach). It belongs to the run, not
	// to the file: Name, SHA256 and the rows stay the file's, and the
	// schedule is built from the rows.
	PerRequest EntryRequests
}

// EntryRequests gives the request one scheduled entry sends.
type EntryRequests interface {
	// Request returns what the entry with ID id, scheduled from the
	// workload's row row, sends. It must not encode anything (it runs
	// on the timed path) and must return the same request for the same
	// id and row every time.
	Request(id string, row int) *record.Request
}

// EntryRequest is the request the entry with ID id, scheduled from row
// row, sends: PerRequest's when set, else the row itself.
func (w *Workload) EntryRequest(id string, row int) *record.Request {
	if w.PerRequest != nil {
		return w.PerRequest.Request(id, row)
	}
	return &w.Requests[row]
}

// LoadWorkload reads a workload JSONL file.
func LoadWorkload(path string) (*Workload, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load workload: %w", err)
	}
	return ParseWorkload(path, data)
}

// ParseWorkload parses workload JSONL: one JSON object a line, blank lines
// ignored. name is used in errors, which give the line and the field.
func ParseWorkload(name string, data []byte) (*Workload, error) {
	sum := sha256.Sum256(data)
	w := &Workload{Name: name, SHA256: hex.EncodeToString(sum[:])}
	seen := map[string]int{}
	line := 0
	for rest := data; len(rest) > 0; {
		var raw []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			raw, rest = rest[:i], rest[i+1:]
		} else {
			raw, rest = rest, nil
		}
		line++
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			continue
		}
		r, err := parseRow(raw, line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if prev, dup := seen[r.ID]; dup {
			return nil, fmt.Errorf("%s:%d: id: %q already used on line %d", name, line, r.ID, prev)
		}
		seen[r.ID] = line
		w.Requests = append(w.Requests, r)
	}
	if len(w.Requests) == 0 {
		return nil, fmt.Errorf("%s: workload has no requests", name)
	}
	if err := checkCycledIDs(w, seen); err != nil {
		return nil, err
	}
	return w, nil
}

// parseRow decodes and validates one workload row.
func parseRow(raw []byte, line int) (record.Request, error) {
	var r record.Request
	if err := checkLineUTF8(raw); err != nil {
		return r, err
	}
	if bytes.Equal(raw, []byte("null")) {
		return r, fmt.Errorf("row: expected a JSON object, got JSON null")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, record.DescribeJSONError(err)
	}
	if dec.More() {
		return r, fmt.Errorf("more than one JSON value on the line")
	}
	r.Line = line
	if r.ID == "" {
		r.ID = "row-" + strconv.Itoa(line)
	}
	if err := checkRowNames(&r); err != nil {
		return r, err
	}
	if err := r.CheckHeaders(); err != nil {
		return r, err
	}
	return r, validateRow(&r)
}

// validateRow checks a row's fields for consistency. A row is either a
// text-generation row (prompt or messages, with max_tokens) or a row of
// the embeddings or rerank APIs (input, or query with documents); which
// endpoint it fits is checked when the run knows its endpoint.
func validateRow(r *record.Request) error {
	if f := record.PoolingField(r); f != "" {
		return validatePoolingRow(r, f)
	}
	switch {
	case r.Prompt == "" && len(r.Messages) == 0:
		return fmt.Errorf("prompt or messages: one of them is required")
	case r.Prompt != "" && len(r.Messages) > 0:
		return fmt.Errorf("prompt and messages: give only one")
	case r.MaxTokens <= 0:
		return fmt.Errorf("max_tokens: must be a positive integer, got %d", r.MaxTokens)
	case r.ScheduledMS != nil && !(*r.ScheduledMS >= 0):
		return fmt.Errorf("scheduled_ms: must be a non-negative number, got %v", *r.ScheduledMS)
	case r.ThinkMS < 0:
		return fmt.Errorf("think_ms: must not be negative")
	case r.Turn < 0:
		return fmt.Errorf("turn: must not be negative")
	case r.Turn > 1 && r.Conversation == "":
		return fmt.Errorf("conversation: required when turn > 1")
	case r.ReusablePromptTokens != nil && *r.ReusablePromptTokens < 0:
		return fmt.Errorf("reusable_prompt_tokens: must not be negative, got %d", *r.ReusablePromptTokens)
	case r.ReusablePromptTokens != nil && r.PromptTokens != nil && *r.ReusablePromptTokens > *r.PromptTokens:
		return fmt.Errorf("reusable_prompt_tokens: %d is more than the row's prompt_tokens %d", *r.ReusablePromptTokens, *r.PromptTokens)
	}
	for i, m := range r.Messages {
		if m.Role == "" {
			return fmt.Errorf("messages[%d].role: required", i)
		}
	}
	if err := validateParts(r); err != nil {
		return err
	}
	if r.Expect != nil {
		if err := quality.Validate(r.Expect); err != nil {
			return fmt.Errorf("expect: %w", err)
		}
	}
	return nil
}

// validatePoolingRow checks an embeddings or rerank row; f is the first such
// field it sets.
func validatePoolingRow(r *record.Request, f string) error {
	if t := record.TextField(r); t != "" {
		return fmt.Errorf("%s: a text-generation field in a row with %s (an embeddings or rerank row)", t, f)
	}
	if r.ScheduledMS != nil && !(*r.ScheduledMS >= 0) {
		return fmt.Errorf("scheduled_ms: must be a non-negative number, got %v", *r.ScheduledMS)
	}
	switch {
	case r.Input != nil && (r.Query != "" || r.Documents != nil || r.TopN != nil):
		return fmt.Errorf("input: an embeddings row, give it without query, documents or top_n")
	case r.Input != nil:
		return r.Input.Validate()
	case r.Query == "":
		return fmt.Errorf("query: required in a rerank row (a row with %s)", f)
	case len(r.Documents) == 0:
		return fmt.Errorf("documents: a rerank row needs a non-empty array of strings")
	case r.TopN != nil && *r.TopN <= 0:
		return fmt.Errorf("top_n: must be a positive integer, got %d", *r.TopN)
	}
	for i, d := range r.Documents {
		if d == "" {
			return fmt.Errorf("documents[%d]: empty string", i)
		}
	}
	return nil
}
