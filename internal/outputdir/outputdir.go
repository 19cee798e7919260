// Package outputdir keeps an output directory servebench's own: a
// command refuses a directory that is not empty, --overwrite removes only
// what the previous manifest.json names, and every command that writes a
// directory lists what it wrote, with sizes, in manifest.json.
package outputdir

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/safefile"
)

// ManifestFile is the manifest's name in the directory it describes.
const ManifestFile = "manifest.json"

// ManifestSchema names the manifest's format.
const ManifestSchema = "servebench.manifest/v1"

// Manifest lists what one command wrote into a directory.
type Manifest struct {
	Schema string `json:"schema"`
	// Command is the command that wrote the directory (run, sweep, ab,
	// merge, demo, contract).
	Command string `json:"command"`
	// Entries lists every file and directory the command wrote, by slash
	// path relative to the directory, parents before their contents.
	Entries []Entry `json:"entries"`
}

// Entry is one file or directory in a Manifest.
type Entry struct {
	Path string `json:"path"`
	// Type is "file" or "dir".
	Type string `json:"type"`
	// Size is a file's length in bytes, or the total of the files under a
	// directory.
	Size int64 `json:"size"`
}

// Dir is an output directory prepared for a command.
type Dir struct {
	path string
	// before holds the slash paths already there (the user's own, kept by
	// --overwrite), which the manifest leaves out.
	before map[string]bool
}

// Prepare checks dir before a command writes into it. A directory that
// does not exist, or is empty, is fine. Any other is refused unless
// overwrite is set; then it must hold a manifest.json, and only what that
// manifest names is removed (what the user put there stays). A symbolic
// link left in it is refused. Errors name flag, the directory and what was
// found.
func Prepare(flag, dir string, overwrite bool) (*Dir, error) {
	d := &Dir{path: dir, before: map[string]bool{}}
	fi, err := os.Stat(dir) // the directory named may itself be a link (to a scratch disk)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s %s: not a directory", flag, dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if len(entries) == 0 {
		return d, nil
	}
	if !overwrite {
		return nil, fmt.Errorf("%s %s is not empty (it holds %s); give a new or empty directory, or --overwrite to remove what servebench wrote there before",
			flag, dir, names(entries))
	}
	if err := removeManifested(dir); err != nil {
		return nil, fmt.Errorf("--overwrite: %w", err)
	}
	return d, d.recordBefore()
}

// names lists up to five entries' names.
func names(entries []os.DirEntry) string {
	var out []string
	for i, e := range entries {
		if i == 5 {
			out = append(out, fmt.Sprintf("and %d more", len(entries)-5))
			break
		}
		out = append(out, e.Name())
	}
	return strings.Join(out, ", ")
}

// ReadManifest reads dir's manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if m.Schema != ManifestSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, m.Schema, ManifestSchema)
	}
	for _, e := range m.Entries {
		if !filepath.IsLocal(filepath.FromSlash(e.Path)) || e.Path == ManifestFile {
			return nil, fmt.Errorf("%s: entry %q is not a path inside the directory", path, e.Path)
		}
	}
	return &m, nil
}

// removeManifested removes what dir's manifest names, files first, then
// the directories deepest first when they are empty, then the manifest.
func removeManifested(dir string) error {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is not empty and holds no %s, so nothing in it is known to be servebench's; nothing was removed (give a new or empty directory)", dir, ManifestFile)
	}
	if err != nil {
		return err
	}
	entries := slices.Clone(m.Entries)
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if a.Type != b.Type {
			return cmp.Compare(b.Type, a.Type) // "file" before "dir"
		}
		return cmp.Compare(strings.Count(b.Path, "/"), strings.Count(a.Path, "/"))
	})
	for _, e := range entries {
		path := filepath.Join(dir, filepath.FromSlash(e.Path))
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		case e.Type == "file" && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0):
			err = os.Remove(path)
		case e.Type == "dir" && fi.IsDir():
			if err = os.Remove(path); err != nil && !isNotEmpty(path) {
				return err
			}
			err = nil
		}
		if err != nil {
			return err
		}
	}
	return os.Remove(filepath.Join(dir, ManifestFile))
}

// isNotEmpty reports whether the directory at path still holds entries
// (the user's own, which are kept).
func isNotEmpty(path string) bool {
	entries, err := os.ReadDir(path)
	return err == nil && len(entries) > 0
}

// recordBefore notes what the directory holds after --overwrite, so that
// the manifest leaves it out, and refuses a symbolic link among it.
func (d *Dir) recordBefore() error {
	return filepath.WalkDir(d.root(), func(path string, e fs.DirEntry, err error) error {
		if err != nil || path == d.root() {
			return err
		}
		rel, _ := filepath.Rel(d.path, path)
		if e.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("--output: %s holds a symbolic link (%s) that servebench did not write; remove it or give another directory", d.path, filepath.ToSlash(rel))
		}
		d.before[filepath.ToSlash(rel)] = true
		return nil
	})
}

// WriteManifest lists, in manifest.json, every file and directory under
// the directory that was not there when it was prepared. It writes
// nothing when the command wrote nothing (or no directory).
func (d *Dir) WriteManifest(command string) error {
	if d == nil {
		return nil
	}
	m := Manifest{Schema: ManifestSchema, Command: command, Entries: []Entry{}}
	dirIndex := map[string]int{}
	err := filepath.WalkDir(d.root(), func(path string, e fs.DirEntry, err error) error {
		if err != nil || path == d.root() {
			return err
		}
		rel, _ := filepath.Rel(d.path, path)
		rel = filepath.ToSlash(rel)
		if d.before[rel] || rel == ManifestFile || !(e.IsDir() || e.Type().IsRegular()) {
			return nil
		}
		if e.IsDir() {
			dirIndex[rel] = len(m.Entries)
			m.Entries = append(m.Entries, Entry{Path: rel, Type: "dir"})
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		m.Entries = append(m.Entries, Entry{Path: rel, Type: "file", Size: info.Size()})
		for parent := pathDir(rel); parent != ""; parent = pathDir(parent) {
			if i, ok := dirIndex[parent]; ok {
				m.Entries[i].Size += info.Size()
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(m.Entries) == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(d.path, ManifestFile), append(b, '\n'))
}

// root is the directory's path with a trailing separator, so that a walk
// descends into it also when the path named is a link to it.
func (d *Dir) root() string { return d.path + string(filepath.Separator) }

// pathDir is a slash path's parent, "" at the top.
func pathDir(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}
