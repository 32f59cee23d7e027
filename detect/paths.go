package detect

import (
	"os"
	"path/filepath"
)

// places holds the two directories the walks treat specially, both with
// symlinks resolved; "" when unknown.
type places struct {
	home string // $HOME as os.UserHomeDir gives it
	temp string // the temp root as os.TempDir gives it
}

// currentPlaces reads $HOME and the temp root from the environment now, so
// that a test (or a long-lived process) setting HOME or TMPDIR is honoured.
func currentPlaces() places {
	var p places
	if h, err := os.UserHomeDir(); err == nil && h != "" {
		p.home = resolve(h)
	}
	if t := os.TempDir(); t != "" {
		p.temp = resolve(t)
	}
	return p
}

// resolve makes path absolute and resolves its symlinks; a path that cannot
// be resolved (it does not exist) is returned absolute and cleaned.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// exists reports whether path names anything, following symlinks (a broken
// link does not exist), like Python's Path.exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isFile reports whether path is a regular file, following symlinks.
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// ancestors returns dir followed by each of its parents up to the
// filesystem root.
func ancestors(dir string) []string {
	out := []string{dir}
	for {
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		out = append(out, parent)
		dir = parent
	}
}
