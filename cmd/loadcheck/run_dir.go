package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// runDir is what a paired run reads back from a servebench run directory
// written by any version of the CLI since e12cfa1.
type runDir struct {
	// runID is schedule.json's run_id: every request's X-Request-Id is
	// runID/ID/1.
	runID   string
	timings []requestTiming
	// peakInFlight is report.json's generator.peak_outstanding.
	peakInFlight int
	notes        []string
}

// outcomeLine holds the fields of an outcomes.jsonl record the pair needs;
// their names and meanings are the same at e12cfa1 and since.
type outcomeLine struct {
	ID             string   `json:"id"`
	Status         string   `json:"status"`
	ScheduledMS    float64  `json:"scheduled_ms"`
	SentMS         *float64 `json:"sent_ms"`
	FirstContentMS *float64 `json:"first_content_ms"`
}

// runReport holds the fields of report.json the pair shows.
type runReport struct {
	Valid          bool     `json:"valid"`
	InvalidReasons []string `json:"invalid_reasons"`
	Generator      *struct {
		PeakOutstanding       int      `json:"peak_outstanding"`
		SchedulerLatencyP99MS *float64 `json:"scheduler_latency_p99_ms"`
	} `json:"generator"`
}

// readRunDir reads schedule.json's run ID, every outcome record's clocks
// and report.json's validity and generator figures from dir.
func readRunDir(dir string) (*runDir, error) {
	var sched struct {
		RunID string `json:"run_id"`
	}
	if err := readJSON(filepath.Join(dir, "schedule.json"), &sched); err != nil {
		return nil, err
	}
	if sched.RunID == "" {
		return nil, fmt.Errorf("%s: no run_id", filepath.Join(dir, "schedule.json"))
	}
	rd := &runDir{runID: sched.RunID}
	path := filepath.Join(dir, "outcomes.jsonl")
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	for line := 1; ; line++ {
		var o outcomeLine
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, line, err)
		}
		t := requestTiming{id: sched.RunID + "/" + o.ID + "/1", scheduled: o.ScheduledMS, succeeded: o.Status == "success"}
		if o.SentMS != nil {
			t.sent, t.hasSent = *o.SentMS, true
		}
		if o.FirstContentMS != nil {
			t.first, t.hasFirst = *o.FirstContentMS, true
		}
		rd.timings = append(rd.timings, t)
	}
	var rep runReport
	if err := readJSON(filepath.Join(dir, "report.json"), &rep); err != nil {
		rd.notes = append(rd.notes, "no report.json read: "+err.Error())
		return rd, nil
	}
	if g := rep.Generator; g != nil {
		rd.peakInFlight = g.PeakOutstanding
		if g.SchedulerLatencyP99MS != nil {
			rd.notes = append(rd.notes, fmt.Sprintf("Go scheduler latency p99 %.2f ms", *g.SchedulerLatencyP99MS))
		}
	}
	if !rep.Valid {
		rd.notes = append(rd.notes, "report.json: not valid load: "+strings.Join(rep.InvalidReasons, "; "))
	}
	return rd, nil
}

// readJSON decodes the JSON file at path into v.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
