package tasks

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// A Go task's folder stores go.mod and every .go file under a name with a
// leading "_" (repo/_go.mod, repo/_clamp.go): a folder holding go.mod is a
// separate module that go:embed leaves out, and .go files under bench's own
// module would be compiled by its "go vet ./...". Go ignores files whose
// names start with "_", and the loader presents them under their real
// names, so that Task.FS of a Go task holds repo/go.mod and repo/clamp.go.
// A file stored under its real name (a --tasks-dir folder outside bench's
// module) is presented as it is.

// goEligible reports whether a file named name is stored with a leading "_".
func goEligible(name string) bool {
	return name == "go.mod" || name == "go.sum" || strings.HasSuffix(name, ".go")
}

// presented returns the name under which the stored file name is shown.
func presented(name string) string {
	if rest, ok := strings.CutPrefix(name, "_"); ok && goEligible(rest) {
		return rest
	}
	return name
}

// goFS presents a Go task's stored files under their real names.
type goFS struct{ fsys fs.FS }

// goStoredFS wraps the Go task folder fsys; two stored files that present
// the same name (_clamp.go and clamp.go) are an error.
func goStoredFS(fsys fs.FS) (fs.FS, error) {
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || presented(d.Name()) == d.Name() {
			return err
		}
		if _, err := fs.Stat(fsys, path.Join(path.Dir(p), presented(d.Name()))); err == nil {
			return fmt.Errorf("both %s and %s are present; keep one (Go files are stored with a leading \"_\")", p, path.Join(path.Dir(p), presented(d.Name())))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return goFS{fsys}, nil
}

// stored returns the name under which the presented file name is stored.
func (g goFS) stored(name string) string {
	dir, base := path.Split(name)
	if goEligible(base) {
		if _, err := fs.Stat(g.fsys, dir+"_"+base); err == nil {
			return dir + "_" + base
		}
	}
	if presented(base) != base {
		return dir + "\x00" // a stored name is not a presented one: not found
	}
	return name
}

// Open opens the presented file name.
func (g goFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := g.fsys.Open(g.stored(name))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: notExist(err)}
	}
	return renamedFile{f, path.Base(name)}, nil
}

// ReadDir lists the folder name under the presented names, sorted.
func (g goFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(g.fsys, name)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(entries))
	for i, e := range entries {
		out[i] = renamedEntry{e, presented(e.Name())}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

// notExist keeps fs.ErrNotExist recognisable through the renaming.
func notExist(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ErrNotExist
	}
	return err
}

// renamedFile is a stored file shown under its presented name.
type renamedFile struct {
	fs.File
	name string
}

func (f renamedFile) Stat() (fs.FileInfo, error) {
	info, err := f.File.Stat()
	if err != nil {
		return nil, err
	}
	return renamedInfo{info, f.name}, nil
}

// ReadDir lists an opened folder under the presented names.
func (f renamedFile) ReadDir(n int) ([]fs.DirEntry, error) {
	d, ok := f.File.(fs.ReadDirFile)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: f.name, Err: errors.New("not a directory")}
	}
	entries, err := d.ReadDir(n)
	for i, e := range entries {
		entries[i] = renamedEntry{e, presented(e.Name())}
	}
	return entries, err
}

type renamedInfo struct {
	fs.FileInfo
	name string
}

func (i renamedInfo) Name() string { return i.name }

type renamedEntry struct {
	fs.DirEntry
	name string
}

func (e renamedEntry) Name() string { return e.name }

func (e renamedEntry) Info() (fs.FileInfo, error) {
	info, err := e.DirEntry.Info()
	if err != nil {
		return nil, err
	}
	return renamedInfo{info, e.name}, nil
}
