package capacity

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// RebatchWorkload regroups the inputs of an embeddings workload into rows
// of size inputs each, in file order, so that one set of texts can be sent
// at several batch sizes. The last row wraps around to the first inputs
// when the count does not divide. The new workload is named after the old
// one with "#batch=<size>" and hashed over its own JSONL bytes.
func RebatchWorkload(w *schedule.Workload, size int) (*schedule.Workload, error) {
	if size <= 0 {
		return nil, fmt.Errorf("batch size %d: want a positive integer", size)
	}
	var texts []string
	for _, r := range w.Requests {
		if r.Input == nil {
			return nil, fmt.Errorf("%s:%d: input: a batch-size sweep needs embeddings rows (input), and this row has none", w.Name, r.Line)
		}
		texts = append(texts, r.Input.Texts...)
	}
	rows := (len(texts) + size - 1) / size
	var buf bytes.Buffer
	out := &schedule.Workload{Name: w.Name + "#batch=" + strconv.Itoa(size)}
	for i := range rows {
		batch := make([]string, size)
		for j := range batch {
			batch[j] = texts[(i*size+j)%len(texts)]
		}
		r := record.Request{ID: fmt.Sprintf("batch%d-%d", size, i+1), Input: &record.TextInput{Texts: batch, Batch: true}, Line: i + 1}
		line, err := json.Marshal(&r)
		if err != nil {
			return nil, err
		}
		buf.Write(line)
		buf.WriteByte('\n')
		out.Requests = append(out.Requests, r)
	}
	sum := sha256.Sum256(buf.Bytes())
	out.SHA256 = hex.EncodeToString(sum[:])
	return out, nil
}

// RunBatchSweep runs cfg once per batch size at cfg's own arrival rate,
// with the workload's inputs regrouped into rows of that many inputs (see
// RebatchWorkload), each point into "batch-<size>" under cfg.OutputDir.
// Every point is at the same offered rate, so the capacity rule judges
// whether that rate holds at every batch size. A cancelled sweep returns
// the points it finished.
func RunBatchSweep(ctx context.Context, cfg servebench.RunConfig, sizes []int, rule Rule) (result *Sweep, err error) {
	if cfg.Arrival == nil {
		return nil, fmt.Errorf("batch sweep: an open-loop arrival process is required")
	}
	if len(sizes) == 0 {
		return nil, fmt.Errorf("batch sweep: no batch sizes")
	}
	loaded, err := loadAdaptersOnce(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer unloadAdaptersAfter(ctx, cfg, loaded, &err)
	dir, err := servebench.CreateRunDir(cfg.OutputDir)
	if err != nil {
		return nil, err
	}
	spec := cfg.Arrival.Spec()
	sw := &Sweep{Rule: rule, Arrival: &spec}
	for _, size := range sizes {
		w, err := RebatchWorkload(cfg.Workload, size)
		if err != nil {
			return sw, fmt.Errorf("batch sweep: %w", err)
		}
		point := cfg
		point.Workload, point.Schedule, point.RunID = w, nil, ""
		point.OutputDir = filepath.Join(dir, "batch-"+strconv.Itoa(size))
		res, err := servebench.Run(ctx, point)
		if res != nil && res.Report != nil {
			sw.Points = append(sw.Points, Point{OfferedRPS: spec.RateRPS, Repeat: 1, RunDir: point.OutputDir, Report: res.Report, BatchSize: size})
		}
		if err != nil {
			sw.Selection = Select(sw.Points, rule)
			return sw, fmt.Errorf("batch sweep: batch size %d: %w", size, err)
		}
	}
	sw.Selection = Select(sw.Points, rule)
	return sw, nil
}
