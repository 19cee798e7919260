package compare

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/safefile"
)

// The files an A/B directory holds beside its baseline/ and candidate/
// round directories.
const (
	ComparisonFile     = "compare.json"
	ComparisonHTMLFile = "compare.html"
	// ComparisonTextFile is the full text comparison (WriteText).
	ComparisonTextFile = "compare.txt"
)

// WriteFiles writes compare.json, compare.txt and compare.html into dir.
func (c *Comparison) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	b, err := c.JSON()
	if err != nil {
		return err
	}
	if err := safefile.WriteWhole(filepath.Join(dir, ComparisonFile), b); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	var text bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		return err
	}
	if err := safefile.WriteWhole(filepath.Join(dir, ComparisonTextFile), text.Bytes()); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	f, err := safefile.Create(filepath.Join(dir, ComparisonHTMLFile))
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := c.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
