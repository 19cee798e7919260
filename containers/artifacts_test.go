package containers

import (
	"os"
	"path/filepath"
	"testing"
)

func TestArtifactDir(t *testing.T) {
	root := t.TempDir()
	t.Setenv(EnvArtifactDir, root)
	dir, err := ArtifactDir("simengine", "run-1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "simengine", "run-1"); dir != want {
		t.Errorf("dir %q, want %q", dir, want)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("not created: %v", err)
	}
}
