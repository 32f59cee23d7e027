package testrun

import (
	"context"
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
// pyenv and asdf install), that is the interpreter's own path, asked once
// per process from sys.executable, in the scrubbed environment and temporary
// folder a test run gets, so that it picks the version a test run would: each
// test run then starts Python directly, without the shim (pyenv's costs
// about 180 ms a start, several times Python's own). Any other bin, or a
// shim that cannot say, is returned as it is.
func Interpreter(bin string) string {
	if filepath.Base(filepath.Dir(bin)) != "shims" || !strings.HasPrefix(filepath.Base(bin), "python") {
		return bin
	}
	v, _ := interpreters.LoadOrStore(bin, &interpreter{})
	in := v.(*interpreter)
	in.once.Do(func() { in.path = askExecutable(bin) })
	return in.path
}

// askExecutable runs the shim to print sys.executable; it returns bin when
// that fails or names no executable file.
func askExecutable(bin string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-I", "-c", "import sys; print(sys.executable)")
	cmd.Dir = os.TempDir()
	cmd.Env = Environ(cmd.Dir)
	out, err := cmd.Output()
	path := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(path) {
		return bin
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return bin
	}
	return path
}
