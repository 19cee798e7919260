package record

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// benchOutcome is a 64-token streamed success, the record a run writes
// most, its times made by Millis as the client makes them.
func benchOutcome() *Outcome {
	src := TokensFromUsage
	at := func(us int) float64 { return Millis(time.Duration(us) * time.Microsecond) }
	o := &Outcome{ID: "000123", Attempt: 1, Class: "chat", Status: StatusSuccess, ScheduledMS: at(4123457),
		SlotMS: new(at(4123457)), SentMS: new(at(4123502)), FirstContentMS: new(at(4191330)),
		TerminalMS: at(4288400), OutputTokens: new(64), TokenCountSource: &src, PromptTokens: new(512),
		HTTPStatus: new(200), FinishReason: "length"}
	for i := range 64 {
		o.ContentMS = append(o.ContentMS, at(4191330+i*1523))
	}
	o.LastContentMS = new(o.ContentMS[63])
	return o
}

// BenchmarkWriterWrite measures one record's encoding and write to a
// sink that discards it: "fast" is the writer's own path, "encoding-json"
// what it did before (json.Encoder), for the ratio.
func BenchmarkWriterWrite(b *testing.B) {
	o := benchOutcome()
	b.Run("fast", func(b *testing.B) {
		w := newWriter(io.Discard, nil)
		b.ReportAllocs()
		for b.Loop() {
			if err := w.Write(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := enc.Encode(o); err != nil {
				b.Fatal(err)
			}
			_, _ = io.Discard.Write(buf.Bytes())
		}
	})
}
