package llmdreport

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/yaml"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench"
)

// Format is the file format of a written report.
type Format string

// The formats.
const (
	// JSON writes FileJSON.
	JSON Format = "json"
	// YAML writes FileYAML, the same fields in YAML.
	YAML Format = "yaml"
)

// The file names, in the run directory beside report.json.
const (
	FileJSON = "benchmark_report.json"
	FileYAML = "benchmark_report.yaml"
)

// ParseFormat reads a format name: "json" or "yaml".
func ParseFormat(s string) (Format, error) {
	switch Format(s) {
	case JSON, YAML:
		return Format(s), nil
	}
	return "", fmt.Errorf("want json or yaml, got %q", s)
}

// Writer writes a run's Benchmark Report into its directory; set it in
// servebench.RunConfig.Artifacts. The zero Writer writes JSON.
type Writer struct {
	Format Format
}

// WriteArtifact builds the run's report and writes it as FileJSON or
// FileYAML in res.Dir.
func (w Writer) WriteArtifact(res *servebench.RunResult) error {
	br, err := FromRun(res)
	if err != nil {
		return err
	}
	_, err = Write(res.Dir, br, w.Format)
	return err
}

// Write writes br into dir in format (JSON when empty) and returns the
// file's path.
func Write(dir string, br *Report, format Format) (string, error) {
	data, err := json.MarshalIndent(br, "", "  ")
	if err != nil {
		return "", err
	}
	name := FileJSON
	switch format {
	case "", JSON:
		data = append(data, '\n')
	case YAML:
		name = FileYAML
		if data, err = yaml.JSONToYAML(data); err != nil {
			return "", err
		}
	default:
		return "", fmt.Errorf("llm-d benchmark report: unknown format %q", format)
	}
	path := filepath.Join(dir, name)
	if err := safefile.WriteWhole(path, data); err != nil {
		return "", fmt.Errorf("llm-d benchmark report: %w", err)
	}
	return path, nil
}
