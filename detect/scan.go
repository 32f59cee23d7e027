package detect

import (
	"os"
	"path/filepath"
	"strings"
)

// CodeExtensions are the file extensions (compared lower-cased) that make a
// git repository without a project marker a code workspace.
var CodeExtensions = []string{
	".py", ".pyi", ".ipynb", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs",
	".go", ".rs", ".java", ".kt", ".kts", ".scala", ".rb", ".php",
	".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".m", ".mm",
	".dart", ".ex", ".exs", ".lua", ".sh", ".bash", ".zsh", ".sql",
	".vue", ".svelte", ".r", ".jl", ".hs", ".clj", ".erl", ".pl",
}

// ScanSkipDirs are the subfolders the code scan never enters; every name
// starting with a dot is skipped as well.
var ScanSkipDirs = []string{
	".git", "node_modules", "venv", ".venv", "__pycache__", "dist", "build",
	"target", ".next", ".turbo", "vendor",
}

// MaxScanEntries bounds the code scan: after this many directory entries
// (files and folders, in the root and its subfolders together) it gives up
// and reports no code.
const MaxScanEntries = 500

// readBatch is how many entries the scan asks the OS for at a time, so a
// huge folder is never read whole.
const readBatch = 64

var (
	codeExt  = setOf(CodeExtensions)
	skipDirs = setOf(ScanSkipDirs)
)

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// scanResult is what one code scan found and how much it read.
type scanResult struct {
	found bool // a code file was seen within the bound
	seen  int  // entries counted, at most MaxScanEntries+1
}

// hasCodeFiles looks for a code file in root and in its immediate
// subfolders that are neither hidden nor skipped. Entries are taken in the
// order the OS lists them, subfolders last-found first, and the scan stops
// at the first code file or once more than MaxScanEntries entries were seen.
func hasCodeFiles(root string) scanResult {
	var r scanResult
	type item struct {
		dir    string
		isRoot bool
	}
	stack := []item{{root, true}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var subdirs []string
		stop := scanDir(it.dir, func(e os.DirEntry) bool {
			r.seen++
			if r.seen > MaxScanEntries {
				return true
			}
			isDir, isReg := kind(it.dir, e)
			switch {
			case isReg:
				if codeExt[strings.ToLower(filepath.Ext(e.Name()))] {
					r.found = true
					return true
				}
			case isDir && it.isRoot && !skipDirs[e.Name()] && !strings.HasPrefix(e.Name(), "."):
				subdirs = append(subdirs, filepath.Join(it.dir, e.Name()))
			}
			return false
		})
		if stop {
			return r
		}
		for _, s := range subdirs {
			stack = append(stack, item{s, false})
		}
	}
	return r
}

// scanDir calls visit for each entry of dir, a batch at a time, until visit
// returns true (then scanDir returns true). An unreadable folder is passed
// over silently.
func scanDir(dir string, visit func(os.DirEntry) bool) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(readBatch)
		for _, e := range entries {
			if visit(e) {
				return true
			}
		}
		if err != nil { // io.EOF at the end, or a read error: stop either way
			return false
		}
	}
}

// kind reports whether an entry is a directory or a regular file, following
// a symlink to its target.
func kind(dir string, e os.DirEntry) (isDir, isReg bool) {
	t := e.Type()
	if t&os.ModeSymlink != 0 {
		fi, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			return false, false
		}
		return fi.IsDir(), fi.Mode().IsRegular()
	}
	return t.IsDir(), t.IsRegular()
}
