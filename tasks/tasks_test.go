package tasks

import (
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestEmbeddedCourseTasks(t *testing.T) {
	all, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tk := range all {
		names = append(names, tk.Name)
	}
	if got := strings.Join(names, " "); got != "leap_year parse_date slugify word_freq" {
		t.Fatalf("tasks = %s", got)
	}
	for _, tk := range all {
		if len(tk.Tests) < 5 {
			t.Errorf("%s has %d tests, want at least 5", tk.Name, len(tk.Tests))
		}
	}
}

// TestReposAreGeneral checks that no repo/ holds a .git or a project
// manifest, so that a lone copy is a "general" directory.
func TestReposAreGeneral(t *testing.T) {
	markers := []string{".git", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", "package.json",
		"go.mod", "Makefile", "Dockerfile", "AGENTS.md", "CLAUDE.md", ".cursorrules", "__pycache__"}
	err := fs.WalkDir(Embedded(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if slices.Contains(markers, d.Name()) {
			t.Errorf("%s: a task folder must not hold %s", p, d.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSlugifySourceShape(t *testing.T) {
	src, err := fs.ReadFile(Embedded(), path.Join("slugify", "repo", "slugify.py"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(src); n < 340 || n > 390 {
		t.Errorf("slugify.py is %d bytes, want about 365", n)
	}
	if !strings.HasPrefix(string(src), "import re\n") {
		t.Error("slugify.py must start with import re")
	}
	if strings.Count(string(src), "\ndef ") < 2 {
		t.Error("slugify.py must hold more than the one function")
	}
}

func TestSelect(t *testing.T) {
	all, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Select(all, []string{"slugify", "leap_year", "slugify"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "slugify" || got[1].Name != "leap_year" {
		t.Errorf("Select = %v", got)
	}
	if got, _ := Select(all, nil); len(got) != len(all) {
		t.Errorf("Select with no names returned %d tasks, want all %d", len(got), len(all))
	}
	_, err = Select(all, []string{"parse_dates"})
	if err == nil || !strings.Contains(err.Error(), `"parse_dates"`) || !strings.Contains(err.Error(), "leap_year, parse_date, slugify, word_freq") {
		t.Errorf("err = %v, want the unknown name and the known ones", err)
	}
}

func TestChecksum(t *testing.T) {
	fsys := taskFS(goodManifest)
	all, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	a, err := all[0].Checksum()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a, "sha256:") || len(a) != len("sha256:")+64 {
		t.Fatalf("checksum %q", a)
	}
	again, _ := all[0].Checksum()
	if again != a {
		t.Fatal("checksum is not stable")
	}
	fsys["demo/solution/calc.py"] = &fstest.MapFile{Data: []byte("def add(a, b):\n    return b + a\n")}
	changed, _ := all[0].Checksum()
	if changed == a {
		t.Error("changing a file did not change the checksum")
	}
	fsys["demo/solution/calc.py"] = &fstest.MapFile{Data: []byte("def add(a, b):\n    return a + b\n")}
	fsys["demo/solution/calc2.py"] = &fstest.MapFile{}
	added, _ := all[0].Checksum()
	if added == a {
		t.Error("adding an empty file did not change the checksum")
	}
}

func TestTestNames(t *testing.T) {
	fsys := fstest.MapFS{"repo/t.py": {Data: []byte(`import unittest
class A(unittest.TestCase):
    def test_one(self):
        def test_inner():  # a nested helper is not a method
            pass
    def helper(self):
        pass
    async def test_async(self):
        pass
def test_module_level():
    pass
class B(unittest.TestCase):
    def test_one(self):
        pass
`)}}
	got, err := testNames(fsys, []string{"t.py"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "test_one,test_async" {
		t.Errorf("testNames = %v", got)
	}
}
