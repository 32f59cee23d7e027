package testrun

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"bench/sandbox"
	"bench/tasks"
	"bench/testrun/gojson"
)

// Kinds of Go build cache (GoCacheDir). Grading and the oracle check read
// and write only GradeCache; the tracks' test runs (model-written code)
// write only TrackCache, so they cannot plant entries that grading reads.
// GoStdShare holds only what a warm-up compiles (warmGo: the standard
// library's share that every test binary links, from a module of bench's
// own; no task's code is built with it): a fresh cache of another kind
// starts as its copy, so that the library is compiled once, not once per
// kind.
const (
	GradeCache = "grade"
	TrackCache = "tracks"
	GoStdShare = "std"
)

// GoRun makes RunWith run "go test -json" in two steps, so that the code
// under test never runs where it could write the build cache: the go
// command builds each test binary (with Cache as GOCACHE, writable; it
// compiles the code but never runs it) and, instead of running it, hands
// it over (go test -exec); then each binary runs on its own, in its
// package's folder, in a sandbox that neither writes nor reads the cache.
// The output is read by gojson against the expected top-level tests.
type GoRun struct {
	Cache     string   // the GOCACHE folder; created when missing
	Share     string   // a GoStdShare folder a fresh Cache starts as a copy of; "" for none
	Tests     []string // the top-level test functions that should report
	DropTests bool     // delete the workspace's *_test.go files once built, before the tests run (grading)
}

// RunTask runs the tests of task t in dir by its framework, in the
// default sandbox: unittest output is parsed as RunWith does; a Go task runs
// with the tracks' build cache (TrackCache).
func RunTask(ctx context.Context, t tasks.Task, dir string) (Result, error) {
	return RunTaskWith(ctx, t, dir, Options{Sandbox: DefaultSandbox()}, TrackCache)
}

// RunTaskWith is RunTask with explicit options and, for a Go task, the
// kind of build cache (GradeCache or TrackCache) it may write.
func RunTaskWith(ctx context.Context, t tasks.Task, dir string, opts Options, cache string) (Result, error) {
	HideAnswers(t)
	if t.Framework == tasks.FrameworkGo {
		opts.Go = GoRunOf(cache, t.Tests)
	}
	return RunWith(ctx, dir, t.TestCmd, t.Timeout, opts)
}

// GoRunOf is the run of a Go task's tests with bench's build cache of the
// kind (GradeCache or TrackCache), started from the standard library's
// share (GoStdShare), expecting the top-level tests.
func GoRunOf(kind string, tests []string) *GoRun {
	return &GoRun{Cache: GoCacheDir(kind), Share: GoCacheDir(GoStdShare), Tests: tests}
}

// HideAnswers keeps the folders that hold the answers of t and of the
// built-in tasks (the --tasks-dir folder, bench's source when it runs from
// a checkout) out of what every later test run can read; bench's
// executable always is (sandbox.Hide).
func HideAnswers(t tasks.Task) {
	sandbox.Hide(t.Origin, tasks.SourceDir())
}

// GoCacheDir returns bench's own Go build cache of the given kind:
// os.UserCacheDir()/bench/gocache/KIND, or under the temporary folder when
// there is no user cache folder.
func GoCacheDir(kind string) string {
	root, err := os.UserCacheDir()
	if err != nil {
		root = filepath.Join(os.TempDir(), "bench-cache-"+user())
	}
	return filepath.Join(root, "bench", "gocache", kind)
}

// user names the current user for a per-user folder name.
func user() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "uid" + strconv.Itoa(os.Getuid())
}

// GoEnv is what a Go test run adds to Environ, and what any other go test
// of a task adds to build as bench does (a cache started from the share,
// GoStdShare, finds the library compiled only for builds with these
// flags): modules resolved offline from the workspace alone (-mod=mod, no
// proxy, no toolchain download, no go.work, no go env file from HOME,
// which is the workspace), -count=1 so that no test result is ever taken
// from a cache, -trimpath so that no compiled package holds the
// workspace's folder (the next workspace with the same code finds it in
// the cache: grading the course's tasks seed after seed compiles them
// once), GOCACHE set to cache and GOPATH inside the run's temporary folder
// tmp (which also holds the user's configuration folder, privateDirs: the
// go command writes its telemetry counters there whatever GOTELEMETRY
// says).
func GoEnv(cache, tmp string) []string {
	return []string{
		"GOFLAGS=-mod=mod -count=1 -trimpath",
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
		"GOENV=off",
		"GOWORK=off",
		"GOCACHE=" + cache,
		"GOPATH=" + filepath.Join(tmp, "gopath"),
		"GOTELEMETRY=off",
	}
}

// prepare adds the Go environment to env and the cache to the writable
// folders, creating the cache.
func (g *GoRun) prepare(env []string, opts Options, tmp string) ([]string, Options, error) {
	if err := os.MkdirAll(g.Cache, 0o700); err != nil {
		return env, opts, err
	}
	opts.Writable = slices.Concat(opts.Writable, []string{g.Cache})
	return append(env, GoEnv(g.Cache, tmp)...), opts, nil
}

// recordScript is the -exec program of the build step: it copies the test
// binary the go command built into $BENCH_TESTBIN and writes the folder it
// would run in and its arguments beside it, one a line, instead of
// running it.
const recordScript = `set -e
cp "$1" "$BENCH_TESTBIN/$$.test"
shift
{ pwd; printf '%s\n' "$@"; } > "$BENCH_TESTBIN/$$.tmp"
mv "$BENCH_TESTBIN/$$.tmp" "$BENCH_TESTBIN/$$.args"
`

// run runs argv ("go test …") in dir: the build step, then each test
// binary it recorded, all within runCtx; see GoRun.
func (g *GoRun) run(ctx, runCtx context.Context, dir string, argv []string, timeout time.Duration, opts Options) (Result, error) {
	bins, err := os.MkdirTemp("", "bench-gotest-")
	if err != nil {
		return Result{}, fmt.Errorf("a folder for the test binaries: %w", err)
	}
	forget := Scratch(bins)
	defer func() {
		removeAll(bins)
		forget()
	}()
	script := filepath.Join(bins, "record.sh")
	if err := os.WriteFile(script, []byte(recordScript), 0o600); err != nil {
		return Result{}, err
	}
	build := step{ws: dir, cwd: dir, argv: withExec(argv, script), env: []string{"BENCH_TESTBIN=" + bins}, opts: opts}
	build.opts.Writable = slices.Concat(opts.Writable, []string{bins})
	res, err := runStep(ctx, runCtx, build)
	if err != nil {
		return res, err
	}
	out := buildEvents(res.Output)
	if g.DropTests && !res.TimedOut {
		if err := dropTestFiles(dir); err != nil {
			return res, err
		}
	}
	tests, err := recorded(bins, dir)
	if err != nil {
		return res, err
	}
	module := modulePath(dir)
	res.Ended = len(tests) > 0
	for _, tb := range tests {
		if res.TimedOut {
			break
		}
		r, err := runStep(ctx, runCtx, g.testStep(dir, bins, tb, opts))
		res.Duration += r.Duration
		res.TimedOut = res.TimedOut || r.TimedOut
		res.CutBytes += r.CutBytes
		if r.ExitCode != 0 {
			res.ExitCode = r.ExitCode
		}
		if err != nil {
			return res, err
		}
		pkg := packagePath(module, dir, tb.dir)
		out += gojson.Frame(r.Output, pkg) + summary(pkg, r)
		res.Ended = res.Ended && ended(r.Output)
	}
	res.Output, res.Channel = out, out
	g.apply(&res)
	return finish(ctx, res, timeout, dir)
}

// testBinary is one test binary the build step recorded.
type testBinary struct {
	path, dir string
	args      []string
}

// testStep runs one test binary in its package's folder: the workspace
// writable as before, the binaries readable, no build cache (GOCACHE is a
// fresh folder of the step's own, for a test that runs go itself).
func (g *GoRun) testStep(ws, bins string, tb testBinary, opts Options) step {
	opts.Go = nil
	opts.ReadOnly = slices.Concat(opts.ReadOnly, []string{bins})
	return step{ws: ws, cwd: tb.dir, argv: append([]string{tb.path}, tb.args...), opts: opts,
		env: []string{"PWD=" + tb.dir, "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOENV=off", "GOWORK=off", "GOTELEMETRY=off"}}
}

// withExec is the go test command argv with -exec running the record
// script, as the first flag after "test".
func withExec(argv []string, script string) []string {
	i := slices.Index(argv, "test")
	if i < 0 {
		i = len(argv) - 1
	}
	return slices.Concat(argv[:i+1], []string{"-exec", "/bin/sh '" + script + "'"}, argv[i+1:])
}

// recorded reads the test binaries the build step left in bins, sorted by
// package folder; a folder outside the workspace dir is refused.
func recorded(bins, dir string) ([]testBinary, error) {
	names, err := filepath.Glob(filepath.Join(bins, "*.args"))
	if err != nil {
		return nil, err
	}
	var out []testBinary
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		rel, err := filepath.Rel(dir, lines[0])
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("go test would run a test binary in %s, outside the workspace", lines[0])
		}
		tb := testBinary{path: strings.TrimSuffix(name, ".args") + ".test", dir: lines[0]}
		for _, a := range lines[1:] {
			if !strings.HasPrefix(a, "-test.testlogfile=") { // a file of the build step's, gone
				tb.args = append(tb.args, a)
			}
		}
		out = append(out, tb)
	}
	slices.SortFunc(out, func(a, b testBinary) int { return strings.Compare(a.dir, b.dir) })
	return out, nil
}

// buildEvents keeps, of the build step's output, what says how the build
// went: go's own messages, build output and failures. The package results
// it prints are those of the record script, not of the tests.
func buildEvents(out string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		var e gojson.Event
		if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &e) != nil || e.ImportPath != "" || e.FailedBuild != "" {
			b.WriteString(line)
			continue
		}
		if e.Action == "output" && e.Test == "" && strings.HasPrefix(e.Output, "FAIL") && strings.Contains(e.Output, "[build failed]") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// ended reports whether a test binary's output ends with the testing
// package's last line, PASS or FAIL.
func ended(out string) bool {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	last := strings.TrimPrefix(lines[len(lines)-1], "\x16")
	return last == "PASS" || last == "FAIL"
}

// summary is the line go test prints after a package's tests.
func summary(pkg string, r Result) string {
	word := "ok  "
	if r.ExitCode != 0 || r.TimedOut {
		word = "FAIL"
	}
	line, _ := json.Marshal(gojson.Event{Action: "output", Package: pkg, Output: fmt.Sprintf("%s\t%s\t%.3fs\n", word, pkg, r.Duration.Seconds())})
	return string(line) + "\n"
}

// dropTestFiles deletes every *_test.go file under dir (not under
// testdata/, whose files are data): the binaries are built, and the tests
// need not read their own source.
func dropTestFiles(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), "_test.go") {
			return os.Remove(p)
		}
		return nil
	})
}

// modulePath is the module path that dir's go.mod declares, or "".
func modulePath(dir string) string {
	data, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// packagePath is the import path of the package in folder pkgDir of the
// module rooted at dir.
func packagePath(module, dir, pkgDir string) string {
	rel, err := filepath.Rel(dir, pkgDir)
	if err != nil || rel == "." {
		return module
	}
	return path.Join(module, filepath.ToSlash(rel))
}

// apply fills r from the "go test -json" output in r.Output: the counts
// and failed names of gojson.Parse, one case per test (sorted by name; a
// test that never reported is an error), a build failure as LoadError, and
// Output replaced by the text inside the events.
func (g *GoRun) apply(r *Result) {
	p := gojson.Parse(r.Output, g.Tests)
	r.Output, r.Passed, r.Total, r.Failed, r.LoadError = p.Text, p.Passed, p.Total, p.Failed, p.BuildFailed
	names := slices.Concat(g.Tests, slices.Collect(maps.Keys(p.Outcomes)))
	slices.Sort(names)
	r.Cases = nil
	for _, n := range slices.Compact(names) {
		r.Cases = append(r.Cases, Case{Name: n, Outcome: GoOutcome(p.Outcomes[n])})
	}
}

// GoOutcome maps a gojson outcome to a unittest one: a test with none (it
// never reported one: its binary crashed or was killed) is an error.
func GoOutcome(o string) string {
	switch o {
	case gojson.Pass:
		return OK
	case gojson.Skip:
		return Skipped
	case gojson.Fail:
		return Fail
	}
	return Error
}
