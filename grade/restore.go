package grade

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"bench/tasks"
)

// restore writes the pristine copy of the test file name (relative to
// repo/) into dir and reports whether the workspace's copy differed or was
// missing. Whatever stands at that path (a symlink, a folder) is removed
// first, and so is a symlink or file in place of one of its folders, so a
// track cannot redirect the write outside the workspace.
func restore(t tasks.Task, dir, name string) (changed bool, err error) {
	want, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, name))
	if err != nil {
		return false, fmt.Errorf("reading the pristine %s of task %s: %w", name, t.Name, err)
	}
	changed, err = clearFolders(dir, name)
	if err != nil {
		return changed, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	dst := filepath.Join(dir, filepath.FromSlash(name))
	info, err := os.Lstat(dst)
	switch {
	case changed:
	case err == nil && info.Mode().IsRegular():
		got, err := os.ReadFile(dst)
		if err == nil && bytes.Equal(got, want) {
			return false, nil
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, fmt.Errorf("checking test file %s: %w", name, err)
	}
	if err := os.RemoveAll(dst); err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	_, err = f.Write(want)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return true, fmt.Errorf("restoring test file %s: %w", name, err)
	}
	return true, nil
}

// clearFolders makes sure that every folder on the way to name (relative to
// dir, slash-separated) is a real folder or absent: a symlink or a file in
// the place of one is removed (RemoveAll never follows a link), and the
// result says whether one was. Without this, writing dir/name could follow
// a link out of the workspace.
func clearFolders(dir, name string) (bool, error) {
	p := dir
	parts := strings.Split(path.Dir(name), "/")
	for _, part := range parts {
		if part == "." {
			break
		}
		p = filepath.Join(p, part)
		info, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return false, nil
		case err != nil:
			return false, err
		case info.IsDir():
			continue
		}
		return true, os.RemoveAll(p)
	}
	return false, nil
}
