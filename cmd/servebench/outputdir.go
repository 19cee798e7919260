package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/sweepreport"
)

// runOutputFiles are the files a run writes into its directory, and a
// sweep (or the demo) beside its rate-* directories.
var runOutputFiles = []string{
	servebench.ScheduleFile, servebench.OutcomesFile, servebench.WarmupFile,
	servebench.ReportFile, servebench.ReportHTMLFile, llmdreport.FileJSON, llmdreport.FileYAML,
	sweepreport.JSONFile, sweepreport.HTMLFile,
}

// previousOutput lists the servebench output dir already holds: a run's
// files and a sweep's rate-* directories. A directory that does not exist
// holds none.
func previousOutput(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--output: %w", err)
	}
	var found []string
	for _, e := range entries {
		name := e.Name()
		if (e.IsDir() && strings.HasPrefix(name, "rate-")) || (!e.IsDir() && slices.Contains(runOutputFiles, name)) {
			found = append(found, name)
		}
	}
	return found, nil
}

// prepareOutput refuses a directory that already holds servebench output,
// so that two runs are never mixed, unless overwrite is set; then it
// removes that output (and only that) first.
func prepareOutput(dir string, overwrite bool) error {
	if dir == "" {
		return nil
	}
	found, err := previousOutput(dir)
	if err != nil || len(found) == 0 {
		return err
	}
	if !overwrite {
		return fmt.Errorf("--output %s already holds servebench output (%s); give another directory, or --overwrite to remove it first",
			dir, strings.Join(found, ", "))
	}
	for _, name := range found {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("--overwrite: %w", err)
		}
	}
	return nil
}
