package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"
)

// ReadFile reads a report.json, naming the file in any error, and
// remembers its directory for EachRequest. A missing file is an error that
// wraps fs.ErrNotExist; a malformed one is a *record.InputError.
func ReadFile(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, &record.InputError{File: path, Msg: fmt.Sprintf("malformed report: %v", err)}
	}
	r.runDir = filepath.Dir(path)
	return &r, nil
}
