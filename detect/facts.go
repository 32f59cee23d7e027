package detect

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// LockFile ties a lock file to the package manager that writes it.
type LockFile struct{ File, Manager string }

// jsLockFiles are the JavaScript lock files, in priority order.
var jsLockFiles = []LockFile{
	{"pnpm-lock.yaml", "pnpm"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"},
	{"yarn.lock", "yarn"}, {"package-lock.json", "npm"},
}

// LockFiles lists every lock file the snapshot recognises, in the order it
// names their package managers. The Python and JavaScript entries follow
// Hermes; Cargo.lock, go.sum and Gemfile.lock are bench's additions.
var LockFiles = concat(
	[]LockFile{{"uv.lock", "uv"}, {"poetry.lock", "poetry"}, {"Pipfile.lock", "pipenv"}},
	jsLockFiles,
	[]LockFile{{"Cargo.lock", "cargo"}, {"go.sum", "go"}, {"Gemfile.lock", "bundler"}},
)

func concat(parts ...[]LockFile) []LockFile {
	var out []LockFile
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// VerifyTargets are the package.json scripts and Makefile targets worth
// naming as verify commands, in this order.
var VerifyTargets = []string{"test", "tests", "lint", "typecheck", "check", "build", "fmt", "format"}

const (
	maxVerify    = 8
	maxFactBytes = 256 << 10 // a manifest larger than this is not read
)

// facts are what the snapshot says about the project at its root.
type facts struct {
	manifests []string // markers that are files, context files excluded, in Markers order
	managers  []string // package managers of the lock files present
	verify    []string // commands that check the work
	context   []string // context files present
}

// projectFacts reads the manifests, lock files and context files at root.
//
// The verify commands are inferred only from evidence that a command
// exists, so that none is invented:
//   - scripts/run_tests.sh when it is a file;
//   - "<pm> run <target>" for each VerifyTargets script in package.json
//     (pm from the JavaScript lock file, npm by default);
//   - "python -m pytest" when pytest.ini exists or pyproject.toml has a
//     [tool.pytest…] table;
//   - "go test ./..." for go.mod and "cargo test" for Cargo.toml;
//   - "make <target>" for each VerifyTargets target of the Makefile.
//
// A requirements.txt alone names no test runner, so it gives no command (the
// lesson's in-place snapshot has no Verify line either).
func projectFacts(root string) facts {
	var f facts
	ctx := setOf(ContextFiles)
	for _, m := range Markers {
		if isFile(filepath.Join(root, m)) {
			if ctx[m] {
				f.context = append(f.context, m)
			} else {
				f.manifests = append(f.manifests, m)
			}
		}
	}
	seen := map[string]bool{}
	for _, l := range LockFiles {
		if isFile(filepath.Join(root, l.File)) && !seen[l.Manager] {
			seen[l.Manager] = true
			f.managers = append(f.managers, l.Manager)
		}
	}
	f.verify = verifyCommands(root)
	return f
}

func verifyCommands(root string) []string {
	var cmds []string
	at := func(name string) string { return filepath.Join(root, name) }
	if isFile(at("scripts/run_tests.sh")) {
		cmds = append(cmds, "scripts/run_tests.sh")
	}
	if isFile(at("package.json")) {
		pm := jsManager(root)
		scripts := packageScripts(readSmall(at("package.json")))
		for _, t := range VerifyTargets {
			if _, ok := scripts[t]; ok {
				cmds = append(cmds, pm+" run "+t)
			}
		}
	}
	if isFile(at("pytest.ini")) || strings.Contains(readSmall(at("pyproject.toml")), "[tool.pytest") {
		cmds = append(cmds, "python -m pytest")
	}
	if isFile(at("go.mod")) {
		cmds = append(cmds, "go test ./...")
	}
	if isFile(at("Cargo.toml")) {
		cmds = append(cmds, "cargo test")
	}
	if mk := readSmall(at("Makefile")); mk != "" {
		for _, t := range VerifyTargets {
			if regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(t) + `\s*:`).MatchString(mk) {
				cmds = append(cmds, "make "+t)
			}
		}
	}
	return dedupe(cmds, maxVerify)
}

// jsManager names the JavaScript package manager from its lock file.
func jsManager(root string) string {
	for _, l := range jsLockFiles {
		if isFile(filepath.Join(root, l.File)) {
			return l.Manager
		}
	}
	return "npm"
}

// packageScripts returns the "scripts" object of a package.json, or nil
// when the text is not such a document.
func packageScripts(text string) map[string]json.RawMessage {
	var doc struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	return doc.Scripts
}

// readSmall returns a regular file's text (a UTF-8 byte-order mark
// dropped), or "" when it is missing, unreadable or larger than
// maxFactBytes.
func readSmall(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxFactBytes {
		return ""
	}
	file, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer file.Close()
	b, err := io.ReadAll(io.LimitReader(file, maxFactBytes))
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(string(b), "\ufeff")
}

func dedupe(items []string, limit int) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range items {
		if !seen[s] && len(out) < limit {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
