package workspace

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// WriteFile creates or replaces the file rel with data, creating missing
// folders. It refuses data over MaxFileBytes, a path that is a directory,
// a symbolic link or any other non-regular file, and a file with more than
// one hard link (it may be a link to a file outside the workspace). The new
// content goes to a temporary file beside rel that is then renamed over it,
// so that a failed write leaves the old file whole and the write never goes
// into an inode that another name shares. A replaced file keeps its mode.
func (w *Root) WriteFile(rel string, data []byte) error {
	clean, err := Clean(rel)
	if err != nil {
		return err
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("the new content of %s is %d bytes; the most a file may hold is %d: %w", rel, len(data), MaxFileBytes, ErrTooLarge)
	}
	if clean == "." {
		return fmt.Errorf("%s is a directory, %w", rel, ErrNotRegular)
	}
	dir := path.Dir(clean)
	if err := w.root.MkdirAll(dir, 0o755); errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: a part of the path is not a directory: %w", rel, ErrBadPath)
	} else if err != nil {
		return fileError(rel, err)
	}
	mode, err := w.replaceable(rel, clean)
	if err != nil {
		return err
	}
	return w.replace(rel, clean, dir, data, mode)
}

// replaceable checks the file a write would replace and returns the mode the
// new file gets: the old file's, or 0644 for a new one.
func (w *Root) replaceable(rel, clean string) (fs.FileMode, error) {
	info, err := w.root.Lstat(clean)
	if errors.Is(err, fs.ErrNotExist) {
		return 0o644, nil
	}
	if err != nil {
		return 0, fileError(rel, err)
	}
	if err := regular(rel, info); err != nil {
		return 0, err
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		return 0, fmt.Errorf("%s has %d hard links; the tools do not write a file that other names share (it may lie outside the workspace): %w", rel, st.Nlink, ErrLinked)
	}
	return info.Mode().Perm(), nil
}

// replace writes data to a fresh temporary file in dir and renames it to clean.
func (w *Root) replace(rel, clean, dir string, data []byte, mode fs.FileMode) error {
	tmp := path.Join(dir, tempName())
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fileError(rel, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode) // the umask may have taken bits off
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.root.Rename(tmp, clean)
	}
	if err != nil {
		_ = w.root.Remove(tmp)
		return fileError(rel, err)
	}
	return nil
}

// tempName is a fresh, hidden name for a file being written.
func tempName() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return ".bench-write-" + hex.EncodeToString(b) + ".tmp"
}
