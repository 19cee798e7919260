package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func writeReport(t *testing.T, dir string, qualified int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(attainmentReport(qualified, 100))
	if err := os.WriteFile(filepath.Join(dir, record.ReportFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadSideReadsRoundsInNumericOrder(t *testing.T) {
	dir := t.TempDir()
	for k, q := range map[string]int{"round-1": 91, "round-2": 92, "round-10": 99, "round-3": 93, "round-4": 94, "round-5": 95, "round-6": 96, "round-7": 97, "round-8": 98, "round-9": 98} {
		writeReport(t, filepath.Join(dir, k), q)
	}
	reports, dirs, err := LoadSide(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) != 10 || reports[1].Qualified != 92 || reports[9].Qualified != 99 || filepath.Base(dirs[9]) != "round-10" {
		t.Fatalf("%d reports, dirs %v", len(reports), dirs)
	}
	one, _, err := LoadSide(filepath.Join(dir, "round-3"))
	if err != nil || len(one) != 1 || one[0].Qualified != 93 {
		t.Fatalf("a run directory: %v", err)
	}
}

func TestLoadSideRefusesGapsAndMixtures(t *testing.T) {
	gap := t.TempDir()
	writeReport(t, filepath.Join(gap, "run-1"), 90)
	writeReport(t, filepath.Join(gap, "run-3"), 90)
	if _, _, err := LoadSide(gap); err == nil || !strings.Contains(err.Error(), "run-2 is missing") {
		t.Errorf("gap: %v", err)
	}
	mixed := t.TempDir()
	writeReport(t, filepath.Join(mixed, "run-1"), 90)
	writeReport(t, filepath.Join(mixed, "round-2"), 90)
	if _, _, err := LoadSide(mixed); err == nil || !strings.Contains(err.Error(), "mixes") {
		t.Errorf("mixed: %v", err)
	}
	empty := t.TempDir()
	if _, _, err := LoadSide(empty); err == nil || !strings.Contains(err.Error(), empty+" holds no runs") {
		t.Errorf("empty: %v", err)
	}
	other := t.TempDir()
	writeReport(t, filepath.Join(other, "round-1"), 90)
	writeReport(t, filepath.Join(other, "round-2"), 90)
	b, _ := os.ReadFile(filepath.Join(other, "round-2", record.ReportFile))
	b = []byte(strings.Replace(string(b), `"workload_sha256":"w1"`, `"workload_sha256":"w2"`, 1))
	if err := os.WriteFile(filepath.Join(other, "round-2", record.ReportFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadSide(other); err == nil || !strings.Contains(err.Error(), other+" mixes runs of different workloads: round-1 ran w1, round-2 ran w2") {
		t.Errorf("mixed workloads: %v", err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, record.ReportFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadSide(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("bad json: %v", err)
	}
}
