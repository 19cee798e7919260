package threshold

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// FileName is the file the command writes its thresholds' verdicts to: in
// a run's directory next to report.json, or in a sweep's directory next to
// sweep.json.
const FileName = "thresholds.json"

// Schema names the version of File's JSON form.
const Schema = "servebench.thresholds/v1"

// File is thresholds.json: whether the gate passed and the verdicts on
// each judged report.
type File struct {
	// Schema is Schema.
	Schema string `json:"schema"`
	// Pass is true when no verdict of any judged report failed and, under
	// Unjudged "fail", none was unjudged.
	Pass bool `json:"pass"`
	// Unjudged is what an unjudged verdict is to the gate: "skip" (neither
	// a pass nor a failure) or "fail" (the command's --unjudged fail).
	Unjudged string `json:"unjudged"`
	// Judged has one entry per judged report: the run's own, or each run
	// at a sweep's selected point.
	Judged []Judgment `json:"judged"`
}

// Judgment is the thresholds' verdicts on one report.
type Judgment struct {
	// OfferedRPS, Users and Repeat name the sweep point judged (Users for
	// a user search); absent for a run.
	OfferedRPS *float64 `json:"offered_rps,omitempty"`
	Users      int      `json:"users,omitempty"`
	Repeat     int      `json:"repeat,omitempty"`
	// RunDir is the judged run's directory, relative to the sweep's;
	// absent for a run.
	RunDir string `json:"run_dir,omitempty"`
	// Verdicts are in the order the thresholds were given.
	Verdicts []Verdict `json:"verdicts"`
}

// NewFile assembles thresholds.json from the judgments; unjudgedFails
// makes an unjudged verdict fail the gate.
func NewFile(judged []Judgment, unjudgedFails bool) File {
	f := File{Schema: Schema, Pass: true, Judged: judged, Unjudged: "skip"}
	if unjudgedFails {
		f.Unjudged = "fail"
	}
	if f.Judged == nil {
		f.Judged = []Judgment{}
	}
	for _, j := range judged {
		f.Pass = f.Pass && Passes(j.Verdicts, unjudgedFails)
	}
	return f
}

// WriteFile writes f as dir/thresholds.json.
func (f File) WriteFile(dir string) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, FileName), append(b, '\n'), 0o644)
}
