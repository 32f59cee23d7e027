package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"

	"bench/tasks"
)

// Cache remembers the tasks that passed their oracle check, so that
// every run need not check them again. An entry is keyed by the task's
// checksum, the bench executable's build identity and the program its
// tests run with (python3 or go, on PATH): a changed task, another build of
// bench or another Python or Go checks again.
// The zero Cache (Dir "") caches nothing.
type Cache struct {
	Dir string
}

// DefaultCache is the cache under the user's cache folder
// (os.UserCacheDir()/bench/verified); without one it caches nothing.
func DefaultCache() Cache {
	dir, err := os.UserCacheDir()
	if err != nil {
		return Cache{}
	}
	return Cache{Dir: filepath.Join(dir, "bench", "verified")}
}

// load returns the cached verification of t at checksum sum.
func (c Cache) load(t tasks.Task, sum string) (Verification, bool) {
	if c.Dir == "" {
		return Verification{}, false
	}
	b, err := os.ReadFile(c.path(t, sum))
	if err != nil {
		return Verification{}, false
	}
	var v Verification
	if json.Unmarshal(b, &v) != nil || v.Task != t.Name || !v.OK() {
		return Verification{}, false
	}
	return v, true
}

// store writes v as the verification of t at checksum sum. A cache that
// cannot be written only costs the next run a check: errors are dropped.
func (c Cache) store(t tasks.Task, sum string, v Verification) {
	if c.Dir == "" {
		return
	}
	b, err := json.Marshal(v)
	if err != nil || os.MkdirAll(c.Dir, 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(c.Dir, ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path(t, sum)) != nil {
		os.Remove(tmp.Name())
	}
}

// path is the cache file of t at checksum sum.
func (c Cache) path(t tasks.Task, sum string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", buildIdentity(), toolIdentity(t), t.Name, sum)
	return filepath.Join(c.Dir, hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// buildIdentity names this build of bench: its module version and VCS
// stamp, and its executable's path, size and modification time.
var buildIdentity = sync.OnceValue(func() string {
	id := runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		id += " " + bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.time" || s.Key == "vcs.modified" {
				id += " " + s.Value
			}
		}
	}
	return id + " " + fileIdentity(os.Executable())
})

// toolIdentity names the program t's tests run with (python3, go) as
// found on PATH.
func toolIdentity(t tasks.Task) string {
	if len(t.TestCmd) == 0 {
		return "?"
	}
	return fileIdentity(exec.LookPath(t.TestCmd[0]))
}

// fileIdentity is a file's path, size and modification time.
func fileIdentity(path string, err error) string {
	if err != nil {
		return "?"
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	info, err := os.Stat(path)
	if err != nil {
		return path
	}
	return fmt.Sprintf("%s %d %d", path, info.Size(), info.ModTime().UnixNano())
}
