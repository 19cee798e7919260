package record_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"
)

// A run writes each outcome as its request ends; reading the file back
// gives the records in the order they ended.
func ExampleCreateWriter() {
	dir, _ := os.MkdirTemp("", "outcomes")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, record.OutcomesFile)

	w, err := record.CreateWriter(path, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	sent, first, n := 12.5, 80.0, 1
	for _, o := range []record.Outcome{
		{ID: "r1", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 0, SlotMS: new(0.0), SentMS: &sent,
			FirstContentMS: &first, LastContentMS: &first, TerminalMS: 81, ContentMS: []float64{first}, OutputTokens: &n},
		{ID: "r2", Attempt: 1, Status: record.StatusNotSent, ScheduledMS: 50, TerminalMS: 60},
	} {
		if err := w.Write(&o); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	outs, err := record.ReadOutcomes(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range outs {
		fmt.Println(o.ID, o.Status, o.TerminalMS)
	}
	// Output:
	// r1 success 81
	// r2 not_sent 60
}

// A message's content is its text or its content parts; SetText makes it
// plain text again.
func ExampleMessage_SetText() {
	m := record.Message{Role: "user", Parts: []record.ContentPart{
		{Type: record.PartText, Text: "What is this?"},
		{Type: record.PartImageURL, ImageURL: &record.ImageURL{URL: "http://127.0.0.1:8080/images/0.jpg"}},
	}}
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
	m.SetText("A cat.")
	b, _ = json.Marshal(m)
	fmt.Println(string(b))
	// Output:
	// {"role":"user","content":[{"type":"text","text":"What is this?"},{"type":"image_url","image_url":{"url":"http://127.0.0.1:8080/images/0.jpg"}}]}
	// {"role":"user","content":"A cat."}
}
