package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/outputdir"
)

// wantManifest checks that dir's manifest.json names command and lists
// exactly files at its top level (besides directories), each with its
// size on disk.
func wantManifest(t *testing.T, dir, command string, files ...string) {
	t.Helper()
	m, err := outputdir.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Command != command {
		t.Errorf("manifest command %q, want %q", m.Command, command)
	}
	var got []string
	for _, e := range m.Entries {
		if e.Type != "file" || strings.Contains(e.Path, "/") {
			continue
		}
		got = append(got, e.Path)
		fi, err := os.Stat(filepath.Join(dir, e.Path))
		if err != nil || fi.Size() != e.Size {
			t.Errorf("manifest: %s has size %d; on disk %v (%v)", e.Path, e.Size, fi, err)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, files) {
		t.Errorf("manifest files %v, want %v", got, files)
	}
}

// TestOverwriteRefusesASymlinkItDidNotWrite: a symbolic link left in an
// output directory (here one pointing at a file outside it) stops the
// command before anything is written, and the file it points at is
// untouched.
func TestOverwriteRefusesASymlinkItDidNotWrite(t *testing.T) {
	out := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := json.Marshal(outputdir.Manifest{Schema: outputdir.ManifestSchema, Command: "run", Entries: []outputdir.Entry{}})
	if err := os.WriteFile(filepath.Join(out, outputdir.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(out, "report.json")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("merge", "--output", out, "--overwrite", filepath.Join(t.TempDir(), "shard"))
	want := "--output: " + out + " holds a symbolic link (report.json) that servebench did not write"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link's target now holds %q", b)
	}
}

// TestOverwriteRemovesOnlyWhatTheManifestNames: files and directories the
// manifest names go; the user's file inside a manifested directory, and
// the directory holding it, stay; a manifest entry that points outside is
// refused.
func TestOverwriteRemovesOnlyWhatTheManifestNames(t *testing.T) {
	out := t.TempDir()
	for _, p := range []string{"rate-1/report.json", "rate-2/report.json", "rate-2/mine.txt", "sweep.json", "rate-9/theirs"} {
		if err := os.MkdirAll(filepath.Join(out, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, p), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries := []outputdir.Entry{{Path: "rate-1", Type: "dir"}, {Path: "rate-1/report.json", Type: "file"},
		{Path: "rate-2", Type: "dir"}, {Path: "rate-2/report.json", Type: "file"}, {Path: "sweep.json", Type: "file"}}
	m, _ := json.Marshal(outputdir.Manifest{Schema: outputdir.ManifestSchema, Command: "sweep", Entries: entries})
	if err := os.WriteFile(filepath.Join(out, outputdir.ManifestFile), m, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := outputdir.Prepare("--output", out, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"rate-1", "rate-2/report.json", "sweep.json", "manifest.json"} {
		if _, err := os.Lstat(filepath.Join(out, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", gone, err)
		}
	}
	for _, kept := range []string{"rate-2/mine.txt", "rate-9/theirs"} {
		if _, err := os.Stat(filepath.Join(out, kept)); err != nil {
			t.Errorf("%s was removed: %v", kept, err)
		}
	}
	// What was already there stays out of the next manifest.
	if err := os.WriteFile(filepath.Join(out, "report.json"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	for p, data := range map[string]string{"sub/a": "abc", "sub/b/c": "de"} {
		if err := os.MkdirAll(filepath.Join(out, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.WriteManifest("run"); err != nil {
		t.Fatal(err)
	}
	wantManifest(t, out, "run", "report.json")
	got, err := outputdir.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	want := []outputdir.Entry{{Path: "report.json", Type: "file", Size: 5}, {Path: "sub", Type: "dir", Size: 5},
		{Path: "sub/a", Type: "file", Size: 3}, {Path: "sub/b", Type: "dir", Size: 2}, {Path: "sub/b/c", Type: "file", Size: 2}}
	if !slices.Equal(got.Entries, want) {
		t.Errorf("manifest entries %+v, want %+v", got.Entries, want)
	}

	bad, _ := json.Marshal(outputdir.Manifest{Schema: outputdir.ManifestSchema, Entries: []outputdir.Entry{{Path: "../outside", Type: "file"}}})
	if err := os.WriteFile(filepath.Join(out, outputdir.ManifestFile), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := outputdir.Prepare("--output", out, true); err == nil || !strings.Contains(err.Error(), `entry "../outside" is not a path inside the directory`) {
		t.Errorf("a manifest naming ../outside: %v", err)
	}
}

// TestOutputMayBeALinkToADirectory: an --output that is itself a link (to
// a scratch disk, say) is written through and its manifest lists what was
// written.
func TestOutputMayBeALinkToADirectory(t *testing.T) {
	target := t.TempDir()
	link := filepath.Join(t.TempDir(), "out")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	d, err := outputdir.Prepare("--output", link, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(link, "report.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteManifest("run"); err != nil {
		t.Fatal(err)
	}
	wantManifest(t, target, "run", "report.json")
}
