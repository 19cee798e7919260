package report_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// ReadRequestScores hands over every line in order and names the file,
// line and field of a malformed one.
func TestReadRequestScoresStreamsLinesAndNamesBadOnes(t *testing.T) {
	path := filepath.Join(t.TempDir(), record.RequestsFile)
	sent, ttft := 0.5, 80.0
	good := entryLine(t, report.RequestScore{ID: "a", Status: record.StatusSuccess, SentMS: &sent, TTFTMS: &ttft}) + "\n" +
		entryLine(t, report.RequestScore{ID: "b", Status: record.StatusNotSent, ScheduledMS: 10, Error: "never sent"})
	if err := os.WriteFile(path, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := report.ReadRequestScores(path, func(rs *report.RequestScore) error {
		got = append(got, fmt.Sprintf("%s %s %v", rs.ID, rs.Status, rs.SentMS != nil))
		return nil
	})
	if err != nil || strings.Join(got, "; ") != "a success true; b not_sent false" {
		t.Fatalf("read %q, %v", got, err)
	}

	bad := good + strings.Replace(entryLine(t, report.RequestScore{ID: "c"}), `"scheduled_ms":0`, `"scheduled_ms":"soon"`, 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	err = report.ReadRequestScores(path, func(*report.RequestScore) error { return nil })
	if err == nil || !strings.Contains(err.Error(), path+":4: ") || !strings.Contains(err.Error(), "scheduled_ms") {
		t.Fatalf("a malformed line 4: %v", err)
	}

	stop := fmt.Errorf("enough")
	n := 0
	err = report.ReadRequestScores(path, func(*report.RequestScore) error { n++; return stop })
	if err != stop || n != 1 {
		t.Fatalf("each's error: %v after %d entries", err, n)
	}
}

// entryLine is rs as one line of requests.jsonl.
func entryLine(t *testing.T, rs report.RequestScore) string {
	t.Helper()
	b, err := json.Marshal(&rs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// A run's report leaves its request entries in requests.jsonl, named by
// Report.RequestsFile; read them one at a time.
func ExampleReadRequestScores() {
	// A run directory as a run leaves it, in part.
	dir, _ := os.MkdirTemp("", "run-")
	defer os.RemoveAll(dir)
	f, _ := os.Create(filepath.Join(dir, record.RequestsFile))
	enc := json.NewEncoder(f)
	_ = enc.Encode(report.RequestScore{ID: "a", Status: record.StatusSuccess})
	_ = enc.Encode(report.RequestScore{ID: "b", Status: record.StatusTimeout, ScheduledMS: 250})
	_ = f.Close()
	rep := &report.Report{RequestsFile: record.RequestsFile}

	counts := map[record.Status]int{}
	err := report.ReadRequestScores(filepath.Join(dir, rep.RequestsFile), func(rs *report.RequestScore) error {
		counts[rs.Status]++
		return nil
	})
	fmt.Println(counts[record.StatusSuccess], "success,", counts[record.StatusTimeout], "timeout, error:", err)
	// Output: 1 success, 1 timeout, error: <nil>
}

// A report read back with ReadFile finds its request entries beside it:
// EachRequest reads requests.jsonl one line at a time.
func ExampleReport_EachRequest() {
	dir, _ := os.MkdirTemp("", "run-")
	defer os.RemoveAll(dir)
	f, _ := os.Create(filepath.Join(dir, record.RequestsFile))
	enc := json.NewEncoder(f)
	_ = enc.Encode(report.RequestScore{ID: "a", Status: record.StatusSuccess, Qualified: true})
	_ = enc.Encode(report.RequestScore{ID: "b", Status: record.StatusTimeout, ScheduledMS: 250})
	_ = f.Close()
	b, _ := json.Marshal(report.Report{Schema: report.ReportSchema, Offered: 2, RequestsFile: record.RequestsFile})
	_ = os.WriteFile(filepath.Join(dir, record.ReportFile), b, 0o644)

	rep, err := report.ReadFile(filepath.Join(dir, record.ReportFile))
	if err != nil {
		fmt.Println(err)
		return
	}
	var unqualified []string
	err = rep.EachRequest(func(rs *report.RequestScore) error {
		if !rs.Qualified {
			unqualified = append(unqualified, rs.ID+" "+string(rs.Status))
		}
		return nil
	})
	fmt.Println(unqualified, err)
	// Output: [b timeout] <nil>
}
