package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

var toolchains sync.Map // resolved binary → []string

// Toolchain returns the folders that the command at bin (a path found on
// PATH) needs to read: its own folder, a version manager's root when bin is
// one of its shims (pyenv: all of $PYENV_ROOT, so that a shim can pick any
// version), and for python its sys.prefix and sys.base_prefix, for go its
// GOROOT. The interpreter is asked once per process; nil is fine (then
// only the system folders are readable).
func Toolchain(bin string) []string {
	if v, ok := toolchains.Load(bin); ok {
		return v.([]string)
	}
	dirs := []string{filepath.Dir(bin)}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		dirs = append(dirs, filepath.Dir(real))
	}
	if d := filepath.Dir(bin); filepath.Base(d) == "shims" {
		dirs = append(dirs, filepath.Dir(d))
	}
	base := filepath.Base(bin)
	switch {
	case strings.HasPrefix(base, "python"):
		dirs = append(dirs, ask(bin, "-c", "import sys; print(sys.prefix); print(sys.base_prefix); print(sys.exec_prefix)")...)
	case base == "go":
		dirs = append(dirs, ask(bin, "env", "GOROOT", "GOMODCACHE")...)
	}
	dirs = unique(dirs)
	toolchains.Store(bin, dirs)
	return dirs
}

// ask runs bin with args in / and returns its output lines.
func ask(bin string, args ...string) []string {
	cmd := exec.Command(bin, args...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}

// unique keeps the first of each path, dropping "" and "/" (never grant
// the whole file system).
func unique(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if s == "" || s == "/" || s == "." || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}
