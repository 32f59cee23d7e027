package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// fakeQuotaTests is a test_quota module whose tests pass.
const fakeQuotaTests = `import unittest


class QuotaTest(unittest.TestCase):
    def test_small_plan(self):
        pass

    def test_large_plan(self):
        pass
`

// plantLaterModule is Python run at import of sizes.py, which test_human
// imports first: it compiles fake tests into the bytecode file Python will
// look for when it imports test_quota next (wherever -X pycache_prefix
// puts it), unchecked, so that Python takes it without reading the source.
const plantLaterModule = `
import importlib.util as _iu, os as _os, py_compile as _pc, sys as _sys, tempfile as _tf

try:
    _src = _os.path.join(_tf.mkdtemp(), "fake.py")
    with open(_src, "w") as _f:
        _f.write(%q)
    _pc.compile(_src, cfile=_iu.cache_from_source(_os.path.abspath("test_quota.py")), doraise=True,
                invalidation_mode=_pc.PycInvalidationMode.UNCHECKED_HASH)
    print("PLANTED", _sys.pycache_prefix is not None, flush=True)
except (OSError, _pc.PyCompileError) as _e:
    print("NOT PLANTED", type(_e).__name__, flush=True)
`

// pycPlantRun has the agent write file_sizes' partial fix (test_human
// passes, test_quota fails) plus the plant, with the extra bench run
// arguments and environment, and returns the episode.
func pycPlantRun(t *testing.T, env []string, args ...string) record.Episode {
	t.Helper()
	task := fixture.SuiteTask(t, "file_sizes")
	partial, err := fs.ReadFile(task.FS, "partial/sizes.py")
	if err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewOllama(t, scriptedModel(map[int]script{1: {calls: []model.ToolCall{
		writeFile("sizes.py", string(partial)+fmt.Sprintf(plantLaterModule, fakeQuotaTests)),
	}}}))
	dir := filepath.Join(t.TempDir(), "run")
	data := benchRunEnv(t, srv, dir, env, "file_sizes", append([]string{"--tracks", "agent"}, args...)...)
	return episode(t, data, "agent", 1)
}

// TestAttackBytecodeForALaterTestModule: grading's bytecode prefix (the
// sealed cache) is read-only, so code under test cannot plant bytecode for
// a test module imported after it; and a fake test module would miss the
// controls anyway.
func TestAttackBytecodeForALaterTestModule(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	needSandbox(t, "fs")
	ep := pycPlantRun(t, nil)
	if ep.Passed || ep.TestsPassed == ep.TestsTotal {
		t.Errorf("passed %v, %d/%d, %s; want the partial fix's failure", ep.Passed, ep.TestsPassed, ep.TestsTotal, reasonList(ep))
	}
	if ep.TestsTampered {
		t.Errorf("the plant was refused, yet the run is flagged: %s", reasonList(ep))
	}
}

// TestAttackBytecodeForALaterTestModuleWithoutDefences is the control:
// without the sandbox and the controls, the plant works and the partial
// fix is graded as a pass.
func TestAttackBytecodeForALaterTestModuleWithoutDefences(t *testing.T) {
	t.Parallel()
	fixture.NeedPython(t)
	ep := pycPlantRun(t, []string{noControlsEnv + "=1"}, "--sandbox", "off")
	if !ep.Passed {
		t.Errorf("passed %v, %d/%d, %s; the plant should have faked test_quota", ep.Passed, ep.TestsPassed, ep.TestsTotal, reasonList(ep))
	}
}
