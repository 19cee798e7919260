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
	// Pass is true when every verdict of every judged report passed.
	Pass bool `json:"pass"`
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

// NewFile assembles thresholds.json from the judgments.
func NewFile(judged []Judgment) File {
	f := File{Schema: Schema, Pass: true, Judged: judged}
	if f.Judged == nil {
		f.Judged = []Judgment{}
	}
	for _, j := range judged {
		f.Pass = f.Pass && AllPassed(j.Verdicts)
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
