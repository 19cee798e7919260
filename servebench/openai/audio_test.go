package openai_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// monoWAV16 builds a 16-bit mono PCM WAV of frames frames of silence at
// rate Hz.
func monoWAV16(rate, frames int) []byte {
	var b bytes.Buffer
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 2*frames))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(1))
	le(uint16(1))
	le(uint32(rate))
	le(uint32(2 * rate))
	le(uint16(2))
	le(uint16(16))
	b.WriteString("data")
	le(uint32(2 * frames))
	b.Write(make([]byte, 2*frames))
	return b.Bytes()
}

// TestClientRecordsAudioTokens streams a chat request with a 1.5 s clip of
// 16 kHz mono 16-bit WAV to the simulated engine (25 audio tokens per
// second): the outcome records the engine's audio_tokens, ceil(1.5 × 25) =
// 38, one audio input, and prompt tokens 38 more than the same row without
// the clip; the row without it records no audio_tokens (nil, not 0).
func TestClientRecordsAudioTokens(t *testing.T) {
	engine := simengine.StartTest(t, nil)
	c := &openai.Client{BaseURL: engine.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointChat,
		TotalTimeout: 10 * time.Second}
	clip := &record.InputAudio{Data: base64.StdEncoding.EncodeToString(monoWAV16(16000, 24000)), Format: "wav"}
	send := func(parts ...record.ContentPart) *record.Outcome {
		row := &record.Request{ID: "a1", MaxTokens: 2, Messages: []record.Message{{Role: "user",
			Parts: append([]record.ContentPart{{Type: record.PartText, Text: "transcribe this"}}, parts...)}}}
		out := &record.Outcome{ID: row.ID, Attempt: 1, SlotMS: new(0.0)}
		c.Do(context.Background(), time.Now(), row, "run/a1/1", out)
		wantStatus(t, out, record.StatusSuccess)
		return out
	}
	plain := send()
	wantNil(t, "audio tokens without a clip", plain.AudioTokens)
	out := send(record.ContentPart{Type: record.PartInputAudio, InputAudio: clip})
	wantInt(t, "audio tokens", out.AudioTokens, 38)
	wantInt(t, "prompt tokens", out.PromptTokens, *plain.PromptTokens+38)
	if out.AudioInputs != 1 {
		t.Fatalf("audio inputs %d, want 1", out.AudioInputs)
	}
}
