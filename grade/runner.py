"""bench's grading runner: runs unittest and reports each test's outcome.

Usage: python3 -B -S -s -X pycache_prefix=DIR bench_grade.py SEALFILE [unittest args]

SEALFILE holds {"nonce": ..., "tests": [absolute paths of the sealed test
files], "site": [the path the interpreter's site module makes]}; it is read
and deleted before any code under test runs. Each
test's outcome goes to file descriptor 3, bench's result channel, as a line
"<nonce> {json}" when the test stops; the last line says the run finished,
how many tests ran and what the runner's own checks found.

The runner does not know which tests are bench's negative controls, nor
their names' meaning: bench wrote them into the sealed test files and reads
the outcomes against its own plan.
"""
import os
import sys

_write, _exit, _channel = os.write, os._exit, 3
with open(sys.argv[1]) as _f:
    _seal = _f.read()
os.unlink(sys.argv[1])

# The workspace goes after the standard library, never before it.
del sys.path[0]
_cwd = os.getcwd()

import json  # the standard library's: the workspace is not on the path yet
import site  # with -S, the module alone: site.main() does not run

_seal = json.loads(_seal)
# With -S no start-up hook runs (a .pth line can import a dozen modules at
# every start), so the runner does the rest of what site would: the path
# it makes (bench asked the interpreter for it; the site-packages folders
# when it could not) and the builtins exit, quit, copyright and help.
for _p in _seal.get("site") or site.getsitepackages():
    if _p and _p not in sys.path and os.path.exists(_p):
        sys.path.append(_p)
site.setquit()
site.setcopyright()
site.sethelper()
_at = next((i for i, p in enumerate(sys.path) if p.endswith(("site-packages", "dist-packages"))), len(sys.path))
sys.path.insert(_at, _cwd)

import unittest

_dumps = json.dumps
_nonce, _tests = _seal["nonce"], set(_seal["tests"])
_watched = [unittest.TestCase, unittest.TestResult, unittest.TextTestResult, unittest.TextTestRunner,
            unittest.TestSuite, unittest.TestLoader, unittest.TestProgram]


def _snapshot():
    return {(c.__name__, k): v for c in _watched for k, v in list(vars(c).items())}


def _emit(record):
    _write(_channel, ("%s %s\n" % (_nonce, _dumps(record))).encode())


_WORSE = {"ok": 0, "skipped": 1, "expected failure": 1, "unexpected success": 2, "FAIL": 3, "ERROR": 4}


class _Result(unittest.TestResult):
    """Reports each test's outcome on the channel when it stops."""

    def startTest(self, test):
        super().startTest(test)
        self._outcome, self._text = None, []

    def _set(self, test, outcome, text=""):
        if not isinstance(test, unittest.TestCase):  # a class or module fixture that failed or skipped
            _emit({"t": str(test), "o": outcome, "x": text, "h": 1})
            return
        if self._outcome is None or _WORSE[outcome] > _WORSE[self._outcome]:
            self._outcome = outcome
        if text:
            self._text.append(text)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._set(test, "ok")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._set(test, "FAIL", self.failures[-1][1])

    def addError(self, test, err):
        super().addError(test, err)
        self._set(test, "ERROR", self.errors[-1][1])

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._set(test, "skipped", str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._set(test, "expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._set(test, "unexpected success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._set(test, "FAIL" if failed else "ERROR", "%s\n%s" % (subtest, self._exc_info_to_string(err, test)))

    def stopTest(self, test):
        super().stopTest(test)
        _emit({"t": test.id(), "o": self._outcome or "ERROR", "x": "\n".join(self._text)})


class _Runner:
    """A test runner for unittest.main that prints nothing."""

    def __init__(self, failfast=False, buffer=False, tb_locals=False, **_):
        self.failfast, self.buffer, self.tb_locals = failfast, buffer, tb_locals

    def run(self, test):
        result = _Result()
        result.failfast, result.buffer, result.tb_locals = self.failfast, self.buffer, self.tb_locals
        test(result)
        return result


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
try:
    _prog = unittest.main(module=None, argv=["python -m unittest"] + sys.argv[2:], exit=False, testRunner=_Runner)
except BaseException:  # a test module that cannot even be imported (a syntax error in the code under test)
    import traceback

    _emit({"t": "unittest.loader._FailedTest.import", "o": "ERROR", "x": traceback.format_exc()})
    _emit({"done": True, "ran": 0, "problems": []})
    _exit(1)
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
try:
    sys.stdout.flush()
    sys.stderr.flush()
except Exception:
    pass
_emit({"done": True, "ran": _prog.result.testsRun, "problems": _problems})
_exit(0)
