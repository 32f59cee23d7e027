package tasks

import (
	"embed"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// The whole suite: the course tasks and the tasks built around one
// archetype each (README.md lists them). A new task folder must be added
// here; "all:" keeps files whose names start with "." or "_" (go:embed
// drops them otherwise).
//
//go:embed all:parse_date all:slugify all:word_freq all:leap_year
//go:embed all:temp_convert all:receipt_total all:shipping_fee all:page_views
//go:embed all:exam_average all:file_sizes all:text_tokens
//go:embed all:go_clamp all:go_shapes all:go_cents all:go_report all:go_stack
var suite embed.FS

// Embedded returns the course tasks compiled into the binary: its root
// holds one folder per task (parse_date/, slugify/, ...), so an installed
// bench needs no source tree.
func Embedded() fs.FS { return courseFS{} }

// Suite returns every task compiled into the binary, the course tasks and
// the archetype suite, Python and Go, in the same layout as Embedded. Its
// Go tasks need a runner that grades framework "go".
func Suite() fs.FS { return suite }

// courseFS is the suite with only the course tasks (Course) at its root.
type courseFS struct{}

// Open opens name in the suite when it is under a course task's folder,
// and the root as a folder that lists only those.
func (courseFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if top, _, _ := strings.Cut(name, "/"); top != "." && !InCourse(top) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := suite.Open(name)
	if err != nil || name != "." {
		return f, err
	}
	return &courseRoot{ReadDirFile: f.(fs.ReadDirFile)}, nil
}

// courseRoot is the suite's root folder, listing only the course tasks.
type courseRoot struct {
	fs.ReadDirFile
	left []fs.DirEntry // the course tasks' entries not yet listed
	read bool          // left has been read
}

// ReadDir lists the course tasks' folders of the root, in name order, as
// fs.ReadDirFile says: n > 0 at most n at a time, then io.EOF.
func (r *courseRoot) ReadDir(n int) ([]fs.DirEntry, error) {
	if !r.read {
		all, err := r.ReadDirFile.ReadDir(-1)
		if err != nil {
			return nil, err
		}
		r.left, r.read = slices.DeleteFunc(all, func(e fs.DirEntry) bool { return !InCourse(e.Name()) }), true
	}
	if n <= 0 {
		out := r.left
		r.left = nil
		return out, nil
	}
	if len(r.left) == 0 {
		return nil, io.EOF
	}
	out := r.left[:min(n, len(r.left))]
	r.left = r.left[len(out):]
	return out, nil
}

// SourceDir is the folder of this package's source, where the built-in
// tasks lie when bench runs from a checkout (as the build recorded it and
// only when it is there), or "".
var SourceDir = sync.OnceValue(func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(dir, "leap_year", Solution)); err != nil {
		return ""
	}
	return dir
})
