package loop

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrEscape is returned for a path that leads outside the workspace.
var ErrEscape = errors.New("path leads outside the workspace")

// Confine resolves rel, a path the model gave, inside the workspace root and
// returns the absolute path to use. It rejects empty and absolute paths,
// paths that climb out with "..", and paths whose deepest existing ancestor
// is (or passes through) a symbolic link that resolves outside root. Its
// errors name rel, never root, so that they can be shown to the model.
func Confine(root, rel string) (string, error) {
	if strings.TrimSpace(rel) == "" {
		return "", errors.New("path is empty: give a path relative to the workspace, such as \".\" or \"src/main.py\"")
	}
	if strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%.200q contains a NUL byte; give a plain relative path", rel)
	}
	if filepath.IsAbs(rel) {
		return "", fmt.Errorf("%q is absolute: %w; give a path relative to the workspace", rel, ErrEscape)
	}
	clean := filepath.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q climbs out with \"..\": %w", rel, ErrEscape)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("workspace root: %w", err)
	}
	full := filepath.Join(root, clean)
	existing, err := deepestExisting(full)
	if errors.Is(err, ErrEscape) {
		return "", fmt.Errorf("%.200q: %w", rel, err)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // without the absolute path
		}
		return "", fmt.Errorf("%.200q: %v", rel, err)
	}
	if !within(realRoot, existing) {
		return "", fmt.Errorf("%.200q goes through a symbolic link: %w", rel, ErrEscape)
	}
	return full, nil
}

// deepestExisting resolves the symbolic links of the longest prefix of p that exists.
func deepestExisting(p string) (string, error) {
	for {
		_, err := os.Lstat(p)
		if err == nil {
			real, err := filepath.EvalSymlinks(p)
			if err != nil { // a dangling or looping link: where a write would land is unknown
				return "", fmt.Errorf("%s is a symbolic link that cannot be resolved (%w)", filepath.Base(p), ErrEscape)
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		p = parent
	}
}

// within reports whether p is root or below it; both must be resolved.
func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// relName is how a path inside root is shown to the model: relative, slash-separated.
func relName(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
