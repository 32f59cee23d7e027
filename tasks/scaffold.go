package tasks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// scaffoldName is what a new task may be called: a Python module name in
// lower case.
var scaffoldName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// CheckNewName returns an error saying why a new task cannot be called
// name: it is not a Python module name in lower case, or a built-in task
// has it.
func CheckNewName(name string) error {
	if !scaffoldName.MatchString(name) {
		return fmt.Errorf("task name %q: use lower-case letters, digits and _, starting with a letter (it names the Python module), such as off_by_one", name)
	}
	if builtin, err := Load(Suite()); err == nil && Has(builtin, name) {
		return fmt.Errorf("a built-in task is called %s; choose another name", name)
	}
	return nil
}

// Scaffold writes parent/name/ for `bench tasks new`: a task.toml whose
// text is still to write, repo/name.py with a bug, repo/test_name.py whose
// test fails on it, and an empty solution/. It returns the folder, and
// leaves nothing behind when it fails.
func Scaffold(parent, name string) (string, error) {
	if err := CheckNewName(name); err != nil {
		return "", err
	}
	dir := filepath.Join(parent, name)
	if _, err := os.Stat(dir); err == nil {
		return "", fmt.Errorf("%s already exists; choose another name or --dir", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if err := writeScaffold(dir, name); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// writeScaffold writes the task's files under dir.
func writeScaffold(dir, name string) error {
	files := [][2]string{
		{ManifestName, strings.ReplaceAll(scaffoldManifest, "NAME", name)},
		{"repo/" + name + ".py", scaffoldSource},
		{"repo/test_" + name + ".py", strings.ReplaceAll(scaffoldTest, "NAME", name)},
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f[0]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f[1]), 0o644); err != nil {
			return err
		}
	}
	return os.Mkdir(filepath.Join(dir, Solution), 0o755)
}

const scaffoldManifest = `name = "NAME"
title = "TODO: one line that says what is broken"
instruction = """
The tests in test_NAME.py fail. Fix NAME.py so that every test passes. Do not edit the tests.
"""
test_cmd = ["python3", "-m", "unittest", "-v", "test_NAME"]
source = "NAME.py"
test_files = ["test_NAME.py"]
timeout = "30s"
# The design (see tasks/README.md): a short kebab-case name for what the task
# tests, and the designed answers to the three questions of bench predict,
# in order. All three true makes the task a control.
archetype = "control"
answers = [true, true, true]
`

const scaffoldSource = `def answer():
    """Return the answer."""
    return 41
`

const scaffoldTest = `import unittest

from NAME import answer


class AnswerTest(unittest.TestCase):
    def test_answer(self):
        self.assertEqual(answer(), 42)


if __name__ == "__main__":
    unittest.main()
`
