package schedule

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

// The streamed encoder writes exactly what json.MarshalIndent writes, for
// every shape of schedule: so schedule.json's hash does not depend on
// whether the run held its schedule whole.
func TestScheduleEncoderWritesMarshalIndentBytes(t *testing.T) {
	text, n := "<b>4</b> & \u2028", 2.5
	minOut := 3
	full := &Schedule{Schema: Schema, RunID: "r", Mode: ModeOpen,
		Arrival:  ArrivalSpec{Process: ProcessPoisson, RateRPS: 3.25, Seed: 7},
		WindowMS: [2]float64{0, 1234.5}, ScheduleLagToleranceMS: 20, WorkloadSHA256: "ab", Workload: "w.jsonl",
		Notes: []string{"a note with \"quotes\" and <tags>"},
		Entries: []Entry{
			{ID: "a", Row: 0, ScheduledMS: 0, MaxTokens: 16},
			{ID: "a/turn<2>", Row: 1, Class: "chat", ScheduledMS: 0.001, DependsOn: "a", ThinkMS: 1500, MaxTokens: 8, IgnoreEOS: true},
			{ID: "b#2", Row: 2, ScheduledMS: 1e-7, MaxTokens: 1,
				Expect: &record.Expectation{Exact: &text, Number: &n, MinOutputTokens: &minOut,
					JSONSchema: map[string]any{"type": "object", "required": []any{}, "properties": map[string]any{}}}},
		}}
	shard := *full
	shard.Shard = &ShardHead{Shard: Shard{Index: 1, Count: 3}, FullScheduleSHA256: "cd"}
	empty := *full
	empty.Entries = nil
	emptySlice := *full
	emptySlice.Entries = []Entry{}
	closed := *full
	closed.Mode, closed.Arrival, closed.Notes = ModeClosed, ArrivalSpec{Process: ProcessClosed, Users: 2, ThinkTimeMS: 10}, nil
	for name, s := range map[string]*Schedule{"full": full, "shard": &shard, "no entries": &empty,
		"empty entries": &emptySlice, "closed": &closed} {
		want, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		if s.Entries == nil {
			// MarshalIndent writes a nil slice as null; the encoder always
			// writes a list, which every reader takes the same way.
			want = bytes.Replace(want, []byte(`"entries": null`), []byte(`"entries": []`), 1)
		}
		var got bytes.Buffer
		if err := encodeSchedule(&got, s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: encoder wrote\n%s\nMarshalIndent wrote\n%s", name, got.Bytes(), want)
		}
	}
}

// schedule.Write's hash is the SHA-256 of the file's bytes, and
// schedule.Read reads back the same schedule and hash.
func TestWriteScheduleHashesTheBytesItWrote(t *testing.T) {
	w := mustWorkload(t, "{\"id\":\"r0\",\"prompt\":\"x\",\"max_tokens\":2}\n{\"id\":\"r1\",\"prompt\":\"y\",\"max_tokens\":3}\n{\"id\":\"r2\",\"prompt\":\"z\",\"max_tokens\":4}\n")
	a, _ := NewArrival(ArrivalSpec{Process: ProcessConstant, RateRPS: 10})
	s, err := Build(Plan{Workload: w, Arrival: a, Count: 7, RunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), record.ScheduleFile)
	sum, err := Write(path, s)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != sum {
		t.Fatalf("WriteSchedule returned %s, the file hashes to %x", sum, h)
	}
	back, sum2, err := Read(path)
	if err != nil || sum2 != sum || len(back.Entries) != 7 || back.Entries[6].ID != "r0#3" {
		t.Fatalf("read back %d entries, hash %s, err %v", len(back.Entries), sum2, err)
	}
}
