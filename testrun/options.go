package testrun

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"bench/sandbox"
)

// Options are RunWith's choices beyond the command.
type Options struct {
	Sandbox  sandbox.Config
	ReadOnly []string // folders the tests may read besides the system and the interpreter's
	Writable []string // folders the tests may write besides the workspace and their temporary folder
	Go       *GoRun   // non-nil for "go test -json": Go's environment and output (see RunTaskWith)
	Channel  bool     // give the command a result channel, file descriptor 3, read into Result.Channel
}

// spec is the sandbox's view of one run of bin in dir with the private
// temporary folder tmp.
func (o Options) spec(bin, dir, tmp string) sandbox.Spec {
	return sandbox.Spec{
		Dir: dir, Tmp: tmp, Writable: o.Writable,
		ReadOnly: append(sandbox.Toolchain(bin), o.ReadOnly...),
	}
}

var defaults = struct {
	sync.Mutex
	cfg sandbox.Config
}{}

// SetSandbox sets the sandbox that RunTask and grading use (the --sandbox flag); the
// default is sandbox.Auto.
func SetSandbox(cfg sandbox.Config) {
	defaults.Lock()
	defer defaults.Unlock()
	defaults.cfg = cfg
}

// DefaultSandbox returns the sandbox that RunTask and grading use.
func DefaultSandbox() sandbox.Config {
	defaults.Lock()
	defer defaults.Unlock()
	return defaults.cfg
}

// removeAll removes a folder the tests may have made read-only in part.
func removeAll(dir string) error {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
