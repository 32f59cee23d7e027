package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

var toolchains sync.Map // binary path → []string

// Toolchain returns the folders that the command at bin (a path found on
// PATH) needs to read, found from the file system alone (no command is
// run, so it costs next to nothing): bin's folder and, through links, its
// installation prefix (the parent of its bin/ folder: sys.prefix for
// python, GOROOT for go); a version manager's root when bin is one of its
// shims (pyenv: all of $PYENV_ROOT, so that a shim can pick any version);
// a virtual environment's base interpreter (pyvenv.cfg's home); and for go
// the module cache.
func Toolchain(bin string) []string {
	if v, ok := toolchains.Load(bin); ok {
		return v.([]string)
	}
	dirs := []string{filepath.Dir(bin), prefix(bin)}
	if d := filepath.Dir(bin); filepath.Base(d) == "shims" {
		dirs = append(dirs, filepath.Dir(d))
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		dirs = append(dirs, filepath.Dir(real), prefix(real))
	}
	if home := venvHome(prefix(bin)); home != "" {
		dirs = append(dirs, home, filepath.Dir(home))
	}
	if filepath.Base(bin) == "go" {
		dirs = append(dirs, goModCache())
	}
	dirs = unique(dirs)
	toolchains.Store(bin, dirs)
	return dirs
}

// prefix is the installation prefix of a binary in a bin/ folder, else "".
func prefix(bin string) string {
	if d := filepath.Dir(bin); filepath.Base(d) == "bin" {
		return filepath.Dir(d)
	}
	return ""
}

// venvHome returns the home folder of a virtual environment's base
// interpreter from dir/pyvenv.cfg, or "".
func venvHome(dir string) string {
	if dir == "" {
		return ""
	}
	f, err := os.Open(filepath.Join(dir, "pyvenv.cfg"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if ok && strings.TrimSpace(k) == "home" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// goModCache is where go keeps downloaded modules, from the environment.
func goModCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	if p := os.Getenv("GOPATH"); p != "" {
		return filepath.Join(filepath.SplitList(p)[0], "pkg", "mod")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, "go", "pkg", "mod")
	}
	return ""
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
