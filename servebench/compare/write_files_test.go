package compare

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/report"
)

// TestWriteFilesNeverWritesThroughAPlantedLink: compare.json planted as a
// link out of the output directory is replaced, not written through, and
// compare.html planted so is refused; neither target changes.
func TestWriteFilesNeverWritesThroughAPlantedLink(t *testing.T) {
	c, err := Reports([]*report.Report{attainmentReport(56, 70)}, []*report.Report{attainmentReport(48, 80)}, Options{Tolerances: []Tolerance{{"attainment", 0.01}}, AllowDifferentWorkloads: true})
	if err != nil {
		t.Fatal(err)
	}
	dir, elsewhere := t.TempDir(), t.TempDir()
	victims := map[string]string{}
	for _, name := range []string{ComparisonFile, ComparisonHTMLFile} {
		victim := filepath.Join(elsewhere, name+".target")
		if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		victims[name] = victim
	}
	err = c.WriteFiles(dir)
	if !errors.Is(err, safefile.ErrSymlink) {
		t.Fatalf("WriteFiles: %v, want the refusal of the compare.html link", err)
	}
	for name, victim := range victims {
		if b, _ := os.ReadFile(victim); string(b) != "keep" {
			t.Errorf("%s's link target now holds %q", name, b)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, ComparisonFile)); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("compare.json is not a regular file: %v", err)
	}
}
