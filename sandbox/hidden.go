package sandbox

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// The answers of the tasks (their solution/ and partial/ folders) must
// stay out of what a test run can read. They are compiled into bench's
// executable and lie in any --tasks-dir folder, and a user may install
// bench, or keep either, inside the system folders a run reads. Such a
// path is hidden: the folder that holds it is granted entry by entry,
// without it.

var hiding = struct {
	sync.Mutex
	paths  []string
	carved map[string][]string // read-only folders joined → what is granted of them
}{carved: map[string][]string{}}

// Hide keeps the given paths (files or folders, "" ignored) out of what
// every later test run can read, wherever the read-only folders would
// otherwise grant them. The bench executable and its module's copies in
// the Go module cache are always hidden.
func Hide(paths ...string) {
	hiding.Lock()
	defer hiding.Unlock()
	for _, p := range paths {
		for _, q := range withResolved(p) {
			if !slices.Contains(hiding.paths, q) {
				hiding.paths = append(hiding.paths, q)
				clear(hiding.carved)
			}
		}
	}
}

// withResolved is p made absolute and, when that differs, its
// symlink-resolved form; nothing for "".
func withResolved(p string) []string {
	if p == "" {
		return nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil
	}
	out := []string{abs}
	if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
		out = append(out, real)
	}
	return out
}

var hideOwn = sync.OnceFunc(func() {
	exe, _ := os.Executable()
	Hide(exe)
	Hide(moduleCopies()...)
})

// moduleCopies are the copies of bench's own module, source and zip, in
// the Go module cache (as go install leaves them): they hold the tasks.
func moduleCopies() []string {
	bi, ok := debug.ReadBuildInfo()
	cache := goModCache()
	if !ok || bi.Main.Path == "" || cache == "" {
		return nil
	}
	esc := escapeModule(bi.Main.Path)
	found, _ := filepath.Glob(filepath.Join(cache, filepath.FromSlash(esc)+"@*"))
	return append(found, filepath.Join(cache, "cache", "download", filepath.FromSlash(esc)))
}

// escapeModule is a module path as the module cache spells it: each
// upper-case letter as ! and the letter in lower case.
func escapeModule(path string) string {
	var b strings.Builder
	for _, r := range path {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// carve returns what of the read-only folders ro a run is granted: each
// folder that holds no hidden path as it is, and of one that does, each of
// its entries the same way, down to the hidden paths, which are left out
// (a symbolic link that leads into one is left out too).
func carve(ro []string) []string {
	hideOwn()
	hiding.Lock()
	defer hiding.Unlock()
	key := strings.Join(ro, "\x00")
	if out, ok := hiding.carved[key]; ok {
		return out
	}
	var out []string
	for _, dir := range ro {
		out = append(out, carveDir(dir, hiding.paths)...)
	}
	hiding.carved[key] = out
	return out
}

// carveDir is carve for one path p.
func carveDir(p string, hidden []string) []string {
	var inside []string
	for _, h := range hidden {
		switch {
		case h == p || within(h, p):
			return nil // p is hidden, or inside a hidden folder
		case within(p, h):
			inside = append(inside, h)
		}
	}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		for _, h := range hidden {
			if h == real || within(h, real) || within(real, h) {
				return nil // a link into (or above) a hidden path
			}
		}
	}
	if len(inside) == 0 {
		return []string{p}
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		out = append(out, carveDir(filepath.Join(p, e.Name()), inside)...)
	}
	return out
}

// within reports whether path lies inside the folder dir.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}
