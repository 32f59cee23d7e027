#!/bin/sh
# gen.sh regenerates the captured outputs in this folder by running real
# python3 -m unittest -v on the small test modules under py/. Each capture is
# run (naming the test module, except syntax_error_discover, which uses
# discovery) in a fresh copy under a fixed path so that the files are stable:
#   /tmp/bench-capture/<case>
set -e
here=$(cd "$(dirname "$0")" && pwd)
for case in pass failures outcomes import_error syntax_error syntax_error_discover docstring_subtest large; do
	ws=/tmp/bench-capture/$case
	rm -rf "$ws" && mkdir -p "$ws" && cp "$here/py/$case/"*.py "$ws/"
	mod=$(cd "$ws" && ls test_*.py | sed 's/\.py$//')
	[ "$case" = syntax_error_discover ] && mod= # discovery instead of a named module
	(cd "$ws" && env -i PATH="$PATH" HOME="$ws" LANG=C.UTF-8 LC_ALL=C.UTF-8 PYTHONDONTWRITEBYTECODE=1 PYTHONHASHSEED=0 \
		python3 -m unittest -v $mod >"$here/$case.txt" 2>&1) || true
done
python3 --version >"$here/python-version.txt"
