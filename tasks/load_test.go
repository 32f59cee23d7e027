package tasks

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// goodManifest is a valid task.toml for the task folder built by taskFS.
const goodManifest = `name = "demo"
title = "A demo task"
instruction = "Fix calc.py."
test_cmd = ["python3", "-m", "unittest", "-v", "test_calc"]
source = "calc.py"
test_files = ["test_calc.py"]
timeout = "10s"
archetype = "one-line-bug"
answers = [true, false, true]
`

// taskFS returns a tasks root holding one task folder "demo" with manifest.
func taskFS(manifest string) fstest.MapFS {
	return fstest.MapFS{
		"demo/task.toml":          {Data: []byte(manifest)},
		"demo/repo/calc.py":       {Data: []byte("def add(a, b):\n    return a - b\n")},
		"demo/repo/test_calc.py":  {Data: []byte("import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        pass\n\n    def test_zero(self):\n        pass\n")},
		"demo/solution/calc.py":   {Data: []byte("def add(a, b):\n    return a + b\n")},
		"notes/readme.txt":        {Data: []byte("not a task: no task.toml")},
		"demo/repo/sub/.keep":     {Data: []byte("")},
		"demo/solution/.hidden":   {Data: []byte("x")},
		"demo/repo/_private.py":   {Data: []byte("x = 1\n")},
		"demo/repo/sub/helper.py": {Data: []byte("y = 2\n")},
	}
}

func TestLoadGood(t *testing.T) {
	all, err := Load(taskFS(goodManifest))
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 {
		t.Fatalf("got %d tasks, want 1 (the folder without task.toml is not a task)", len(all))
	}
	got := all[0]
	if got.Name != "demo" || got.Title != "A demo task" || got.Source != "calc.py" || got.Timeout.String() != "10s" {
		t.Errorf("unexpected task %+v", got)
	}
	if strings.Join(got.TestCmd, " ") != "python3 -m unittest -v test_calc" {
		t.Errorf("TestCmd = %q", got.TestCmd)
	}
	if strings.Join(got.Tests, ",") != "test_add,test_zero" {
		t.Errorf("Tests = %q, want test_add,test_zero", got.Tests)
	}
	if got.PartialExpect != "" {
		t.Errorf("PartialExpect = %q, want empty", got.PartialExpect)
	}
	if got.Archetype != "one-line-bug" || got.Answers.List() != [3]bool{true, false, true} || got.Framework != FrameworkUnittest {
		t.Errorf("design fields: archetype %q, answers %v, framework %q", got.Archetype, got.Answers, got.Framework)
	}
	if got.Answers.String() != "yny" || got.Control() {
		t.Errorf("Answers = %q, Control = %v", got.Answers.String(), got.Control())
	}
}

func TestLoadBad(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(goodManifest, old) {
			panic("test setup: " + old)
		}
		return strings.Replace(goodManifest, old, new, 1)
	}
	cases := []struct {
		name     string
		manifest string
		edit     func(fstest.MapFS)
		want     []string // all must appear in the error
	}{
		{"syntax", "name = \"demo\nbroken", nil, []string{"demo/task.toml", "line", "not valid TOML"}},
		{"unknown key", goodManifest + "retries = 3\n", nil, []string{"demo/task.toml", `"retries"`, "unknown field", "test_cmd"}},
		{"missing title", replace("title = \"A demo task\"\n", ""), nil, []string{"demo/task.toml", `"title"`, "missing"}},
		{"missing timeout", replace("timeout = \"10s\"\n", ""), nil, []string{`"timeout"`, "missing"}},
		{"title not a string", replace(`title = "A demo task"`, "title = 42"), nil, []string{`"title"`, "an integer", "expected a string"}},
		{"test_cmd a string", replace(`test_cmd = ["python3", "-m", "unittest", "-v", "test_calc"]`, `test_cmd = "python3 -m unittest"`), nil, []string{`"test_cmd"`, "a string", "expected a list of strings"}},
		{"test_cmd item", replace(`"-v", "test_calc"]`, `"-v", 3]`), nil, []string{`"test_cmd"`, "item 5", "an integer"}},
		{"empty test_cmd", replace(`test_cmd = ["python3", "-m", "unittest", "-v", "test_calc"]`, `test_cmd = []`), nil, []string{`"test_cmd"`, "is empty", "expected a command"}},
		{"bad timeout", replace(`timeout = "10s"`, `timeout = "ten seconds"`), nil, []string{`"timeout"`, `"ten seconds"`, "positive duration"}},
		{"timeout integer", replace(`timeout = "10s"`, `timeout = 10`), nil, []string{`"timeout"`, "an integer", "expected a string"}},
		{"name differs", replace(`name = "demo"`, `name = "other"`), nil, []string{`"name"`, `"other"`, `folder's name "demo"`}},
		{"source absent", replace(`source = "calc.py"`, `source = "calculator.py"`), nil, []string{`"source"`, `"calculator.py" is not in repo/`}},
		{"source escapes", replace(`source = "calc.py"`, `source = "../task.toml"`), nil, []string{`"source"`, "not a clean relative path"}},
		{"test file absent", replace(`test_files = ["test_calc.py"]`, `test_files = ["test_calc.py", "test_more.py"]`), nil, []string{`"test_files"`, `"test_more.py" is not in repo/`}},
		{"no test files", replace(`test_files = ["test_calc.py"]`, `test_files = []`), nil, []string{`"test_files"`, "is empty"}},
		{"source is a test", replace(`source = "calc.py"`, `source = "test_calc.py"`), nil, []string{`"source"`, "also a test file"}},
		{"empty instruction", replace(`instruction = "Fix calc.py."`, `instruction = "  "`), nil, []string{`"instruction"`, "is empty"}},
		{"two-line title", replace(`title = "A demo task"`, `title = "A\ndemo"`), nil, []string{`"title"`, "one non-empty line"}},
		{"no solution", goodManifest, func(m fstest.MapFS) { delete(m, "demo/solution/calc.py"); delete(m, "demo/solution/.hidden") }, []string{"demo/task.toml", "no solution/ folder"}},
		{"partial without expect", goodManifest, func(m fstest.MapFS) { m["demo/partial/calc.py"] = &fstest.MapFile{Data: []byte("x")} }, []string{`"partial_expect"`, "missing", "partial/"}},
		{"expect without partial", goodManifest + "partial_expect = \"boom\"\n", nil, []string{`"partial_expect"`, "no partial/ folder"}},
		{"missing archetype", replace("archetype = \"one-line-bug\"\n", ""), nil, []string{`"archetype"`, "missing"}},
		{"archetype not kebab", replace(`"one-line-bug"`, `"One Line_bug"`), nil, []string{`"archetype"`, `"One Line_bug"`, "kebab-case"}},
		{"archetype a list", replace(`archetype = "one-line-bug"`, `archetype = ["a"]`), nil, []string{`"archetype"`, "a list", "expected a string"}},
		{"missing answers", replace("answers = [true, false, true]\n", ""), nil, []string{`"answers"`, "missing"}},
		{"two answers", replace(`[true, false, true]`, `[true, false]`), nil, []string{`"answers"`, "has 2 items", "three booleans", "first test failure"}},
		{"answer a string", replace(`[true, false, true]`, `[true, "no", true]`), nil, []string{`"answers"`, "item 2", "a string", "true or false"}},
		{"answers a string", replace(`[true, false, true]`, `"yny"`), nil, []string{`"answers"`, "a string", "list of three booleans"}},
		{"unknown framework", goodManifest + "framework = \"pytest\"\n", nil, []string{`"framework"`, `"pytest"`, `"unittest"`, `"go"`}},
		{"no test methods", goodManifest, func(m fstest.MapFS) { m["demo/repo/test_calc.py"] = &fstest.MapFile{Data: []byte("import unittest\n")} }, []string{`"test_files"`, "no test methods"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := taskFS(c.manifest)
			if c.edit != nil {
				c.edit(fsys)
			}
			_, err := Load(fsys)
			if err == nil {
				t.Fatal("Load accepted a bad task")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadEmptyRoot(t *testing.T) {
	_, err := Load(fstest.MapFS{"x/readme": {Data: []byte("hi")}})
	if err == nil || !strings.Contains(err.Error(), "no tasks") {
		t.Fatalf("err = %v, want a 'no tasks' error", err)
	}
}

func TestFromDirNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	writeFS(t, dir, taskFS(strings.Replace(goodManifest, `timeout = "10s"`, `timeout = "soon"`, 1)))
	_, err := FromDir(dir)
	want := filepath.Join(dir, "demo", "task.toml")
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"timeout"`) {
		t.Fatalf("err = %v, want it to name %s and the timeout field", err, want)
	}
}

func TestFromDirMissing(t *testing.T) {
	_, err := FromDir(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("err = %v, want it to name the folder", err)
	}
}

func TestFromDirMatchesEmbedded(t *testing.T) {
	fromDir, err := FromDir(".")
	if err != nil {
		t.Fatal(err)
	}
	emb, err := Load(Suite())
	if err != nil {
		t.Fatal(err)
	}
	if len(fromDir) != len(emb) {
		t.Fatalf("FromDir found %d tasks, Suite %d (is a folder missing from the embed list?)", len(fromDir), len(emb))
	}
	for i := range emb {
		a, err := fromDir[i].Checksum()
		if err != nil {
			t.Fatal(err)
		}
		b, err := emb[i].Checksum()
		if err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("%s: the embedded copy differs from the folder (did the embed list miss a file?)", emb[i].Name)
		}
	}
}

// writeFS writes every file of m under dir.
func writeFS(t *testing.T, dir string, m fstest.MapFS) {
	t.Helper()
	err := fs.WalkDir(m, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, m[p].Data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
