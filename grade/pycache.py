"""bench's sealed bytecode cache: the standard library compiled once.

Usage: python3 -I -B -X pycache_prefix=EMPTY pycache.py OUT

It compiles every module of the interpreter's standard library (test
suites and GUI packages left out) and every module that starting the
interpreter and importing the grading runner's modules loads (a .pth file's
imports among them) into OUT, laid out as -X pycache_prefix=OUT reads them.
It runs with an empty prefix of its own and -B, so it trusts no bytecode
that was there before: what it writes is compiled from the sources. It
prints how many modules it compiled.
"""
import importlib.util
import json  # noqa: F401  (the grading runner's imports, so that they and theirs are compiled)
import os
import py_compile
import sys
import sysconfig
import unittest  # noqa: F401

SKIP = {"test", "tests", "idle_test", "idlelib", "tkinter", "turtledemo", "lib2to3", "ensurepip",
        "site-packages", "dist-packages", "__pycache__", "__phello__"}


def sources():
    paths = sysconfig.get_paths()
    found = set()
    for root in {paths["stdlib"], paths["platstdlib"]}:
        for top, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in SKIP]
            found.update(os.path.join(top, f) for f in files if f.endswith(".py"))
    for module in list(sys.modules.values()):
        f = getattr(module, "__file__", None)
        if isinstance(f, str) and f.endswith(".py") and os.path.isabs(f):
            found.add(f)
    return sorted(found)


def main():
    todo = sources()
    sys.pycache_prefix = sys.argv[1]
    n = 0
    for src in todo:
        try:
            py_compile.compile(src, cfile=importlib.util.cache_from_source(src), doraise=True)
            n += 1
        except (py_compile.PyCompileError, OSError, ValueError):
            pass
    print(n)


main()
