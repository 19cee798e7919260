package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/internal/safefile"
)

// TestWriteFileRefusesALinkOutOfItsDirectory: a link to a file outside is
// refused and the file keeps its bytes; a link to a file beside it, and a
// plain path, are written.
func TestWriteFileRefusesALinkOutOfItsDirectory(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "authorized_keys")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "report.json")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	err := safefile.WriteFile(link, []byte("overwritten"))
	if !errors.Is(err, safefile.ErrSymlink) || err.Error() != link+" is a symbolic link out of its directory; servebench does not write through it" {
		t.Fatalf("err %v, want the symbolic-link refusal", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the target now holds %q", b)
	}

	inside := filepath.Join(dir, "real.json")
	if err := os.WriteFile(inside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", filepath.Join(dir, "alias.json")); err != nil {
		t.Fatal(err)
	}
	if err := safefile.WriteFile(filepath.Join(dir, "alias.json"), []byte("ok")); err != nil {
		t.Fatalf("a link inside the directory: %v", err)
	}
	if b, _ := os.ReadFile(inside); string(b) != "ok" {
		t.Fatalf("real.json holds %q", b)
	}
	if err := safefile.WriteFile(filepath.Join(dir, "new.json"), []byte("new")); err != nil {
		t.Fatal(err)
	}
}

// TestWriteWholeReplacesALinkRatherThanWritingThroughIt: a link planted
// where the file goes is replaced by the file; its target keeps its bytes.
func TestWriteWholeReplacesALinkRatherThanWritingThroughIt(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	victim := filepath.Join(elsewhere, "authorized_keys")
	if err := os.WriteFile(victim, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "compare.json")
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	if err := safefile.WriteWhole(path, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link's target now holds %q", b)
	}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s is not a regular file now: %v %v", path, fi, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{}\n" {
		t.Fatalf("%s holds %q", path, b)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatalf("the temporary file was left behind: %v", err)
	}
}
