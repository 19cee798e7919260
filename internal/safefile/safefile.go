// Package safefile creates output files without following a symbolic
// link out of the directory they are written into, so that a link planted
// in an output directory (report.json -> ~/.ssh/authorized_keys) can never
// make servebench overwrite a file elsewhere.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrSymlink is wrapped by the error for a path that is a symbolic link
// leading out of its directory.
var ErrSymlink = errors.New("is a symbolic link out of its directory; servebench does not write through it")

// Create creates or truncates the file at path for writing. It refuses,
// with an error wrapping ErrSymlink, a path that is a symbolic link
// resolving outside path's directory.
func Create(path string) (*os.File, error) {
	return OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// OpenFile is os.OpenFile resolved inside path's directory (see Create).
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, error) {
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.OpenFile(filepath.Base(path), flag, perm)
	if err != nil {
		return nil, describe(path, err)
	}
	return f, nil
}

// WriteFile writes data to the file at path (see Create).
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// describe names a refused symbolic link plainly; other errors pass.
func describe(path string, err error) error {
	if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s %w", path, ErrSymlink)
	}
	return err
}

// WriteWhole writes data to path through a temporary file beside it
// and a rename, so that a failed write (a full disk) leaves whatever path
// held before, never a partial file that would make the directory
// unscorable.
func WriteWhole(path string, data []byte) error {
	tmp := path + ".tmp"
	err := WriteFile(tmp, data)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
