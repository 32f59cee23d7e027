"""bench's grading runner: runs unittest, then checks that nothing patched it.

Usage: python3 -B -s -X pycache_prefix=DIR bench_grade.py SEALFILE [unittest args]

SEALFILE holds {"nonce": ..., "tests": [absolute paths of the pristine test
files]}; it is read and deleted before any code under test runs. The
verdict goes to a private duplicate of stdout as one line:
BENCH-VERDICT <nonce> {"ran": N, "ok": bool, "problems": [...]}
"""
import os
import sys

_write, _exit, _fd = os.write, os._exit, os.dup(1)
with open(sys.argv[1]) as _f:
    _seal = _f.read()
os.unlink(sys.argv[1])

# The workspace goes after the standard library, never before it.
del sys.path[0]
_cwd = os.getcwd()
_at = next((i for i, p in enumerate(sys.path) if p.endswith(("site-packages", "dist-packages"))), len(sys.path))
sys.path.insert(_at, _cwd)

import json
import unittest

_dumps = json.dumps
_seal = json.loads(_seal)
_nonce, _tests = _seal["nonce"], set(_seal["tests"])
_watched = [unittest.TestCase, unittest.TestResult, unittest.TextTestResult, unittest.TextTestRunner,
            unittest.TestSuite, unittest.TestLoader, unittest.TestProgram]


def _snapshot():
    return {(c.__name__, k): v for c in _watched for k, v in list(vars(c).items())}


def _cases(suite):
    for t in suite:
        if t is None:
            continue
        if isinstance(t, unittest.TestSuite):
            yield from _cases(t)
        else:
            yield t


unittest.TestSuite._cleanup = False  # keep the tests in the suite after the run, to check them
_before = _snapshot()
_prog = unittest.main(module=None, argv=["python -m unittest"] + sys.argv[2:], exit=False,
                      testRunner=unittest.TextTestRunner)
_res = _prog.result
_problems = []
_after = _snapshot()
for _k, _v in _before.items():
    if _after.get(_k) is not _v:
        _problems.append("unittest.%s.%s was replaced" % _k)
for _k in sorted(set(_after) - set(_before)):
    _problems.append("unittest.%s.%s was added" % _k)
for _t in _cases(_prog.test):
    _cls = type(_t)
    if _cls.__module__.startswith("unittest"):
        continue
    _fn = getattr(_cls, getattr(_t, "_testMethodName", ""), None)
    _code = getattr(_fn, "__code__", None)
    if _code is None or _code.co_filename not in _tests:
        _problems.append("%s.%s is not the test file's own method" % (_cls.__name__, _t._testMethodName))
_ok = not _res.failures and not _res.errors and not _res.unexpectedSuccesses and _res.testsRun > 0
_line = "\nBENCH-VERDICT %s %s\n" % (_nonce, _dumps({"ran": _res.testsRun, "ok": _ok, "problems": _problems}))
try:
    sys.stdout.flush()
    sys.stderr.flush()
except Exception:
    pass
_write(_fd, _line.encode())
_exit(0 if _ok and not _problems else 1)
