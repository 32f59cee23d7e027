package grade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"bench/tasks"
)

// maxFile is the largest workspace file carried into grading.
const maxFile = 4 << 20

// seal builds root/ws: the task's pristine repo/, plus each regular
// non-test file of dir that the track added or changed, minus the
// pristine non-test files the track deleted. Left out, and flagged as
// tampering: test packages and modules that shadow a pristine test module,
// bytecode, and top-level modules that shadow the standard library or the
// harness. Left out and noted: links and other non-regular files, and
// files over maxFile. It returns root/ws, symlink-resolved.
func seal(ctx context.Context, t tasks.Task, dir, root string, g *Result) (string, error) {
	ws := filepath.Join(root, "ws")
	if err := t.CopyDir(tasks.Repo, ws); err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(ws); err == nil {
		ws = real
	}
	std := map[string]bool{}
	if !isGo(t) {
		std = stdlibNames(ctx, t.TestCmd)
	}
	seen := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		seen[rel] = true
		why, code := leaveOut(t, std, p, rel, d)
		switch {
		case why != "" && code != "":
			g.flag(code, "%s %s; left out", rel, why)
		case why != "":
			g.note("%s %s; left out", rel, why)
		case d.IsDir():
			return nil
		default:
			return carry(t, p, rel, ws, g)
		}
		if d.IsDir() {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("building the sealed grading copy: %w", err)
	}
	return ws, dropDeleted(t, ws, seen)
}

// leaveOut says why the workspace entry rel is not carried into grading
// ("" to carry it) and, when that is tampering, the reason's code. A Go
// task leaves out only the module files the track added or changed (see
// goLeaveOut).
func leaveOut(t tasks.Task, std map[string]bool, p, rel string, d fs.DirEntry) (why, code string) {
	name := d.Name()
	inRepo := exists(t, rel)
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		return "is a symbolic link", ""
	case !d.IsDir() && !d.Type().IsRegular():
		return "is not a regular file", ""
	case isGo(t):
		return goLeaveOut(t, p, rel, d), ""
	case d.IsDir() && name == "__pycache__":
		return "is a bytecode cache (every test run sets PYTHONDONTWRITEBYTECODE, so it was planted)", ReasonBytecode
	case !d.IsDir() && (strings.HasSuffix(name, ".pyc") || strings.HasSuffix(name, ".pyo")):
		return "is compiled bytecode", ReasonBytecode
	case inRepo:
		return "", ""
	case d.IsDir() && shadowsTest(t, rel):
		return "is a package shadowing a test module", ReasonTestShadow
	case !d.IsDir() && shadowsTestModule(t, rel):
		return "is a module that would be imported in place of a test module", ReasonTestShadow
	case d.IsDir() && looksLikeTest(name):
		return "is a test package the track added", ""
	case shadowsStdlib(t, std, rel, name):
		return "shadows a standard library module", ReasonStdlibShadow
	}
	return "", ""
}

// looksLikeTest reports whether a module or package name matches
// unittest discovery's default pattern, test*.
func looksLikeTest(name string) bool {
	return strings.HasPrefix(name, "test")
}

// shadowsTest reports whether the folder rel has the module name of one of
// the task's test files in the same folder (test_leap/ next to test_leap.py).
func shadowsTest(t tasks.Task, rel string) bool {
	for _, f := range t.TestFiles {
		if strings.TrimSuffix(f, ".py") == rel {
			return true
		}
	}
	return false
}

// shadowsTestModule reports whether the file rel, not itself a test file,
// has the module name of a test file in the same folder
// (test_leap.cpython-311-x86_64-linux-gnu.so or test_leap.so next to
// test_leap.py): Python imports an extension module before the source.
func shadowsTestModule(t tasks.Task, rel string) bool {
	dir, name := path.Split(rel)
	stem, _, _ := strings.Cut(name, ".")
	for _, f := range t.TestFiles {
		fdir, fname := path.Split(f)
		if f != rel && fdir == dir && strings.HasSuffix(fname, ".py") && strings.TrimSuffix(fname, ".py") == stem {
			return true
		}
	}
	return false
}

// shadowsStdlib reports whether rel, a module (name.py, name.so…) or a
// package folder, is importable under a standard library name or a
// harness name: at the top level, or next to a test file.
func shadowsStdlib(t tasks.Task, std map[string]bool, rel, name string) bool {
	if !importRoot(t, path.Dir(rel)) {
		return false
	}
	stem, _, _ := strings.Cut(name, ".")
	for _, h := range shadowNames {
		if name == h || stem == strings.TrimSuffix(h, ".py") {
			return true
		}
	}
	return std[stem]
}

// importRoot reports whether the folder dir (slash-separated, "." for the
// root) is on sys.path when the tests run: the root, or a test file's folder.
func importRoot(t tasks.Task, dir string) bool {
	if dir == "." {
		return true
	}
	for _, f := range t.TestFiles {
		if path.Dir(f) == dir {
			return true
		}
	}
	return false
}

// exists reports whether the task's repo/ holds rel.
func exists(t tasks.Task, rel string) bool {
	_, err := fs.Stat(t.FS, path.Join(tasks.Repo, rel))
	return err == nil
}

// isTestFile reports whether rel is one of the task's protected test files.
func isTestFile(t tasks.Task, rel string) bool {
	for _, f := range t.TestFiles {
		if f == rel {
			return true
		}
	}
	return false
}

// carry copies the workspace file p (rel) into ws when the track added or
// changed it; test files stay pristine (cleanInPlace flagged them), and
// test modules the track added are left out (they are in g.Extra).
func carry(t tasks.Task, p, rel, ws string, g *Result) error {
	added := !exists(t, rel)
	if isTestFile(t, rel) || added && isGo(t) && goTestPath(rel) ||
		added && !isGo(t) && looksLikeTest(path.Base(rel)) && strings.HasSuffix(rel, ".py") {
		return nil
	}
	data, err := readRegular(p)
	if errors.Is(err, errTooBig) {
		g.note("%s is larger than %d bytes; left out", rel, maxFile)
		return nil
	}
	if err != nil {
		return err
	}
	if want, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, rel)); err == nil && bytes.Equal(want, data) {
		return nil
	}
	dst := filepath.Join(ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	os.Remove(dst)
	return writeSparse(dst, data, 0o644)
}

var errTooBig = errors.New("file too large")

// readRegular reads a regular file without following a link or blocking
// on a FIFO, up to maxFile bytes.
func readRegular(p string) ([]byte, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFile+1))
	if err == nil && len(data) > maxFile {
		return nil, errTooBig
	}
	return data, err
}

// dropDeleted removes from ws the pristine non-test files that the track
// deleted from its workspace (seen holds what the workspace has); a Go
// task's module files stay.
func dropDeleted(t tasks.Task, ws string, seen map[string]bool) error {
	return fs.WalkDir(t.FS, tasks.Repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "repo/")
		if seen[rel] || isTestFile(t, rel) || isGo(t) && goModuleFile(path.Base(rel)) {
			return nil
		}
		return os.Remove(filepath.Join(ws, filepath.FromSlash(rel)))
	})
}
