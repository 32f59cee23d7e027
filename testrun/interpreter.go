package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// interpreters remembers, per shim, the interpreter it runs.
var interpreters sync.Map // shim path → *interpreter

type interpreter struct {
	once sync.Once
	path string
}

// Interpreter returns the program that bin runs. When bin is a version
// manager's Python shim (a python* program in a folder named "shims", as
// pyenv and asdf install), that is the interpreter's own path, asked from
// sys.executable, in the scrubbed environment and temporary folder a test
// run gets, so that it picks the version a test run would: each test run
// then starts Python directly, without the shim (pyenv's costs about
// 180 ms a start, several times Python's own). The answer is kept in the
// user's cache folder until a file it depends on changes (shimMark), so a
// run asks at most once. Any other bin, or a shim that cannot say, is
// returned as it is.
func Interpreter(bin string) string {
	if filepath.Base(filepath.Dir(bin)) != "shims" || !strings.HasPrefix(filepath.Base(bin), "python") {
		return bin
	}
	v, _ := interpreters.LoadOrStore(bin, &interpreter{})
	in := v.(*interpreter)
	in.once.Do(func() {
		mark := shimMark(bin)
		if in.path = recalled(bin, mark); in.path == "" {
			if in.path = askExecutable(bin); in.path != bin {
				remember(bin, mark, in.path)
			}
		}
	})
	return in.path
}

// shimMark is what a shim's answer depends on, as the file system shows
// it: the shim, its manager's global version file, and a .python-version
// or .tool-versions in the test runs' temporary folder or above it (the
// environment of a test run has no version variables).
func shimMark(bin string) string {
	var b strings.Builder
	stat := func(p string) {
		if info, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", p, info.Size(), info.ModTime().UnixNano())
		}
	}
	stat(bin)
	stat(filepath.Join(filepath.Dir(filepath.Dir(bin)), "version"))
	for d := os.TempDir(); ; d = filepath.Dir(d) {
		stat(filepath.Join(d, ".python-version"))
		stat(filepath.Join(d, ".tool-versions"))
		if d == filepath.Dir(d) {
			break
		}
	}
	return b.String()
}

// memoFile keeps, between runs, what each shim named: the user's cache
// folder's bench/interpreters.json ("" without one).
func memoFile() string {
	root, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(root, "bench", "interpreters.json")
}

type shimMemo struct {
	Mark string `json:"mark"`
	Path string `json:"path"`
}

// recalled is what shim bin named when its mark was the same, if the
// interpreter is still there; "" otherwise.
func recalled(bin, mark string) string {
	data, err := os.ReadFile(memoFile())
	var memo map[string]shimMemo
	if err != nil || json.Unmarshal(data, &memo) != nil {
		return ""
	}
	m, ok := memo[bin]
	if !ok || m.Mark != mark {
		return ""
	}
	if st, err := os.Stat(m.Path); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return m.Path
}

// remember adds what shim bin named to the memo; a memo that cannot be
// written costs the next run a question, so errors are dropped.
func remember(bin, mark, path string) {
	file := memoFile()
	if file == "" || os.MkdirAll(filepath.Dir(file), 0o755) != nil {
		return
	}
	memo := map[string]shimMemo{}
	if data, err := os.ReadFile(file); err == nil {
		json.Unmarshal(data, &memo)
	}
	memo[bin] = shimMemo{Mark: mark, Path: path}
	data, _ := json.Marshal(memo)
	tmp, err := os.CreateTemp(filepath.Dir(file), ".interpreters-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
	}
}

// askExecutable runs the shim to print sys.executable; it returns bin when
// that fails or names no executable file.
func askExecutable(bin string) string {
	path, err := askPython(bin, "-I", "-c", "import sys; print(sys.executable)")
	if err != nil || !filepath.IsAbs(path) {
		return bin
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return bin
	}
	return path
}

// askPython runs the interpreter (or shim) bin with args in the scrubbed
// environment and temporary folder a test run gets, for at most 10 s, and
// returns what it printed, trimmed.
func askPython(bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = os.TempDir()
	cmd.Env = Environ(cmd.Dir)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}
