package grade

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"bench/sandbox"
	"bench/testrun"
)

// The sealed bytecode cache. Grading runs Python with -B and
// -X pycache_prefix, so that no bytecode from the workspace is ever read
// (a planted .pyc, even one whose checked hash matches the pristine test
// file, would replace it). Pointed at an empty folder, that prefix makes
// every run compile the standard library from source, several times the
// cost of the tests. So the prefix is a cache bench builds once per
// interpreter, from the sources, by an interpreter that itself reads no
// bytecode; grading runs read it and never write it (it is read-only in the
// sandbox), and bench checks it against its manifest before the first use
// in a process. It holds only the interpreter's own modules: the
// workspace's are compiled afresh in every run, as before.

//go:embed pycache.py
var pycacheScript []byte

// manifestName is the cache's list of its files and their SHA-256.
const manifestName = "MANIFEST.json"

var pycaches sync.Map // interpreter path → *sealedCache

type sealedCache struct {
	once sync.Once
	dir  string // "" when there is none
	err  error
}

// bytecodeCache returns the sealed bytecode cache of the interpreter bin
// (the real one, not a shim), building it when there is none and checking
// it the first time in this process; "" (and why) when it cannot be had.
// A run without Landlock could write it, so none is used for it.
func bytecodeCache(ctx context.Context, bin string) (string, error) {
	if l, _ := sandbox.Plan(testrun.DefaultSandbox()); l.FS != sandbox.Landlock {
		return "", errors.New("the sandbox's file-system layer is off")
	}
	v, _ := pycaches.LoadOrStore(bin, &sealedCache{})
	c := v.(*sealedCache)
	c.once.Do(func() { c.dir, c.err = openCache(ctx, bin) })
	return c.dir, c.err
}

// cacheDir is where the cache of bin lives: the user's cache folder,
// under a key of the interpreter's path, size and modification time.
func cacheDir(bin string) (string, error) {
	root, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	info, err := os.Stat(bin)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(fmt.Appendf(nil, "pycache v1\x00%s\x00%d\x00%d", bin, info.Size(), info.ModTime().UnixNano()))
	return filepath.Join(root, "bench", "pycache", hex.EncodeToString(h[:8])), nil
}

// openCache returns the verified cache of bin, building it (again) when
// it is missing or does not match its manifest.
func openCache(ctx context.Context, bin string) (string, error) {
	dir, err := cacheDir(bin)
	if err != nil {
		return "", err
	}
	if err := verifyCache(dir); err == nil {
		return dir, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		unseal(dir)
		os.RemoveAll(dir) // changed since it was built: build it again
	}
	if err := buildCache(ctx, bin, dir); err != nil {
		return "", err
	}
	return dir, verifyCache(dir)
}

// buildCache compiles the cache of bin into a fresh folder beside dir,
// writes its manifest, makes it read-only and moves it into place (a
// cache another process put there first is kept instead).
func buildCache(ctx context.Context, bin, dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return err
	}
	defer func() {
		unseal(tmp)
		os.RemoveAll(tmp)
	}()
	scratch, err := os.MkdirTemp("", "bench-pycache-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	script := filepath.Join(scratch, "pycache.py")
	if err := os.WriteFile(script, pycacheScript, 0o600); err != nil {
		return err
	}
	out := filepath.Join(tmp, "pyc")
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-I", "-B", "-X", "pycache_prefix="+filepath.Join(scratch, "empty"), script, out)
	cmd.Dir, cmd.Env = scratch, testrun.Environ(scratch)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the bytecode cache: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	sums, err := digests(out)
	if err != nil {
		return err
	}
	manifest, _ := json.Marshal(sums)
	if err := os.WriteFile(filepath.Join(tmp, manifestName), manifest, 0o444); err != nil {
		return err
	}
	seal := func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o555)
		}
		return os.Chmod(p, 0o444)
	}
	if err := walkPost(tmp, seal); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil && verifyCache(dir) != nil {
		return fmt.Errorf("installing the bytecode cache: %w", err)
	}
	return nil
}

// verifyCache checks that dir holds exactly the files its manifest lists,
// each with its digest.
func verifyCache(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return err
	}
	var want map[string]string
	if err := json.Unmarshal(data, &want); err != nil {
		return fmt.Errorf("the bytecode cache's manifest: %w", err)
	}
	got, err := digests(filepath.Join(dir, "pyc"))
	if err != nil {
		return err
	}
	if len(got) != len(want) {
		return fmt.Errorf("the bytecode cache holds %d files, its manifest %d", len(got), len(want))
	}
	for p, sum := range want {
		if got[p] != sum {
			return fmt.Errorf("the bytecode cache's %s changed since it was built", p)
		}
	}
	return nil
}

// digests maps every regular file under dir (slash-separated, relative)
// to its SHA-256; anything else there is an error.
func digests(dir string) (map[string]string, error) {
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("the bytecode cache holds %s, not a regular file", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(data)
		sums[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
		return nil
	})
	return sums, err
}

// walkPost calls fn for every entry under dir, a folder after its
// contents (so that a folder made read-only was already walked).
func walkPost(dir string, fn fs.WalkDirFunc) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return fn(p, d, nil)
	})
	for i := len(dirs) - 1; err == nil && i >= 0; i-- {
		info, serr := os.Lstat(dirs[i])
		if serr != nil {
			return serr
		}
		err = fn(dirs[i], fs.FileInfoToDirEntry(info), nil)
	}
	return err
}

// unseal makes dir's folders writable again, so that it can be removed.
func unseal(dir string) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}
