package testrun

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"bench/tasks"
	"bench/testrun/gojson"
)

// Kinds of Go build cache (GoCacheDir). Grading and the oracle check read
// and write only GradeCache; the tracks' test runs (model-written code)
// write only TrackCache, so they cannot plant entries that grading reads.
const (
	GradeCache = "grade"
	TrackCache = "tracks"
)

// GoRun makes RunWith run "go test -json": Go's offline environment
// (goEnv) with Cache as GOCACHE, writable in the sandbox, and the output
// read by gojson against the expected top-level tests.
type GoRun struct {
	Cache string   // the GOCACHE folder; created when missing
	Tests []string // the top-level test functions that should report
}

// RunTask runs the tests of task t in dir by its framework, in the
// default sandbox: unittest output is parsed as Run does; a Go task runs
// with the tracks' build cache (TrackCache).
func RunTask(ctx context.Context, t tasks.Task, dir string) (Result, error) {
	return RunTaskWith(ctx, t, dir, Options{Sandbox: DefaultSandbox()}, TrackCache)
}

// RunTaskWith is RunTask with explicit options and, for a Go task, the
// kind of build cache (GradeCache or TrackCache) it may write.
func RunTaskWith(ctx context.Context, t tasks.Task, dir string, opts Options, cache string) (Result, error) {
	if t.Framework == tasks.FrameworkGo {
		opts.Go = &GoRun{Cache: GoCacheDir(cache), Tests: t.Tests}
	}
	return RunWith(ctx, dir, t.TestCmd, t.Timeout, opts)
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

// goEnv is what a Go test run adds to Environ: modules resolved offline
// from the workspace alone (-mod=mod, no proxy, no toolchain download, no
// go.work, no go env file from HOME, which is the workspace), -count=1 so
// that no test result is ever taken from a cache, GOCACHE set to cache and
// GOPATH inside the run's temporary folder tmp.
func goEnv(cache, tmp string) []string {
	return []string{
		"GOFLAGS=-mod=mod -count=1",
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
	return append(env, goEnv(g.Cache, tmp)...), opts, nil
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
		r.Cases = append(r.Cases, Case{Name: n, Outcome: goOutcome(p.Outcomes[n])})
	}
}

// goOutcome maps a gojson outcome to a unittest one.
func goOutcome(o string) string {
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
