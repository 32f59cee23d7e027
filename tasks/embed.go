package tasks

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// The course tasks. A new task folder must be added to this list; "all:"
// keeps files whose names start with "." or "_" (go:embed drops them otherwise).
//
//go:embed all:parse_date all:slugify all:word_freq all:leap_year
var embedded embed.FS

// The whole suite: the course tasks and the tasks built around one
// archetype each (README.md lists them). A new task folder must be added
// here too.
//
//go:embed all:parse_date all:slugify all:word_freq all:leap_year
//go:embed all:temp_convert all:receipt_total all:shipping_fee all:page_views
//go:embed all:exam_average all:file_sizes all:text_tokens
//go:embed all:go_clamp all:go_shapes all:go_cents all:go_report all:go_stack
var suite embed.FS

// Embedded returns the course tasks compiled into the binary: its root
// holds one folder per task (parse_date/, slugify/, ...), so an installed
// bench needs no source tree.
func Embedded() fs.FS { return embedded }

// Suite returns every task compiled into the binary, the course tasks and
// the archetype suite, Python and Go, in the same layout as Embedded. Its
// Go tasks need a runner that grades framework "go".
func Suite() fs.FS { return suite }

// SourceDir is the folder of this package's source, where the built-in
// tasks lie when bench runs from a checkout (as the build recorded it and
// only when it is there), or "".
var SourceDir = sync.OnceValue(func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(dir, "leap_year", "solution")); err != nil {
		return ""
	}
	return dir
})
