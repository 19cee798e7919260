package suites

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/internal/outputdir"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/sweepreport"
)

// SweepEntryName names the report entry a sweep contract attaches once all
// its load points ran.
const SweepEntryName = "servebench sweep"

// SweepEntry is the report entry of a sweep: where sweep.json and
// sweep.html were kept, and the summary itself.
type SweepEntry struct {
	Contract string             `json:"contract"`
	Dir      string             `json:"dir"`
	JSON     string             `json:"json"`
	HTML     string             `json:"html"`
	Sweep    sweepreport.Result `json:"sweep"`
}

// ColorableString renders the sweep in one line: the knee and the files.
func (e *SweepEntry) ColorableString() string {
	knee := "no tested rate passed"
	if e.Sweep.KneeRPS != nil {
		knee = fmt.Sprintf("knee %g req/s", *e.Sweep.KneeRPS)
	}
	return fmt.Sprintf("%s: %d runs, %s; %s", e.Contract, len(e.Sweep.Rates), knee, e.HTML)
}

// sweepRule is the rule a sweep's summary is judged by: the capacity
// objective's, else the default (α 0.95, no backlog growth).
func (c *Contract) sweepRule() capacity.Rule {
	if _, rule, ok := c.CapacityObjective(); ok {
		return rule
	}
	return capacity.Rule{RequireNoBacklogGrowth: true}
}

// writeSweep keeps sweep.json and sweep.html of the points in
// <root>/<contract>/<UTC time>-sweep, beside the run directories.
func (c *Contract) writeSweep(points []capacity.Point, now time.Time) (*SweepEntry, error) {
	dir := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), now.UTC().Format("20060102T150405.000Z")+"-sweep")
	out, err := outputdir.Prepare("sweep directory", dir, false)
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	sw := capacity.NewSweep(points, c.sweepRule())
	res := sweepreport.FromSweep(sw, dir)
	if err := res.WriteFiles(dir); err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	if err := out.WriteManifest("contract"); err != nil {
		return nil, fmt.Errorf("contract %s: %w", c.Name, err)
	}
	return &SweepEntry{Contract: c.Name, Dir: dir, JSON: filepath.Join(dir, sweepreport.JSONFile),
		HTML: filepath.Join(dir, sweepreport.HTMLFile), Sweep: res}, nil
}
