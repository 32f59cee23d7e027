package workspace

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// Limits on what the tools touch.
const (
	// MaxFileBytes is the largest file the tools read, write or edit. The
	// task files are a few kilobytes; a model's reply is bounded by its
	// context, but a misbehaving server (or code run by the tests writing a
	// huge file) must not fill the disk or the memory.
	MaxFileBytes = 1 << 20
	// MaxPathBytes is the longest path a tool accepts.
	MaxPathBytes = 1024
	// MaxNameBytes is the longest single name in a path (Linux NAME_MAX).
	MaxNameBytes = 255
	// MaxListEntries is the most names List returns.
	MaxListEntries = 5000
)

// Refusals: the path or the file is not one the tools may touch. Refused
// reports whether an error is one of them.
var (
	ErrBadPath    = errors.New("not a usable workspace path")
	ErrEscape     = errors.New("path leads outside the workspace")
	ErrNotRegular = errors.New("not a regular file")
	ErrLinked     = errors.New("the file has more than one hard link")
	ErrTooLarge   = errors.New("too large")
	ErrTooMany    = errors.New("too many files")
)

// Refused reports whether err is a refusal of the path or the file (one of
// the Err* values of this package) rather than a failing file system.
func Refused(err error) bool {
	for _, r := range []error{ErrBadPath, ErrEscape, ErrNotRegular, ErrLinked, ErrTooLarge, ErrTooMany} {
		if errors.Is(err, r) {
			return true
		}
	}
	return false
}

// Clean checks rel, a path the model gave, and returns it cleaned and
// slash-separated ("." for the workspace itself). It refuses an empty path,
// a NUL byte, an absolute path, a path that climbs out with "..", and
// over-long paths and names, each with an error that says what is wrong.
// Symbolic links are not looked at here: os.Root refuses, at use, a link
// that leads outside.
func Clean(rel string) (string, error) {
	switch {
	case strings.TrimSpace(rel) == "":
		return "", fmt.Errorf("path is empty: give a path relative to the workspace, such as \".\" or \"src/main.py\": %w", ErrBadPath)
	case strings.ContainsRune(rel, 0):
		return "", fmt.Errorf("%.200q contains a NUL byte; give a plain relative path: %w", rel, ErrBadPath)
	case len(rel) > MaxPathBytes:
		return "", fmt.Errorf("%.60q… is too long (%d bytes; the most is %d): %w", rel, len(rel), MaxPathBytes, ErrBadPath)
	case filepath.IsAbs(rel):
		return "", fmt.Errorf("%q is absolute; give a path relative to the workspace: %w", rel, ErrEscape)
	}
	clean := path.Clean(filepath.ToSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q climbs out with \"..\": %w", rel, ErrEscape)
	}
	for _, name := range strings.Split(clean, "/") {
		if len(name) > MaxNameBytes {
			return "", fmt.Errorf("the name %.60q… in %.100q is too long (%d bytes; the most is %d): %w", name, rel, len(name), MaxNameBytes, ErrBadPath)
		}
	}
	return clean, nil
}
