package tasks

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// goManifest is a valid task.toml for the Go task folder built by goTaskFS.
const goManifest = `name = "demo"
title = "A Go demo"
instruction = "Fix clamp.go."
test_cmd = ["go", "test", "-json", "./..."]
source = "clamp.go"
test_files = ["clamp_test.go", "testdata/cases.txt"]
timeout = "60s"
archetype = "control"
answers = [true, true, true]
framework = "go"
`

// goTaskFS returns a tasks root with one Go task "demo", its Go files
// stored with a leading "_".
func goTaskFS(manifest string) fstest.MapFS {
	return fstest.MapFS{
		"demo/task.toml":                {Data: []byte(manifest)},
		"demo/repo/_go.mod":             {Data: []byte("module demo\n\ngo 1.22\n")},
		"demo/repo/_clamp.go":           {Data: []byte("package demo\n\nfunc Clamp(x int) int { return x }\n")},
		"demo/repo/_clamp_test.go":      {Data: []byte("package demo\n\nimport \"testing\"\n\nfunc TestClamp(t *testing.T) {}\n\nfunc TestMax(t *testing.T) {}\n\nfunc Testify(t *testing.T) {}\n\nfunc helper(t *testing.T) {}\n")},
		"demo/repo/testdata/cases.txt":  {Data: []byte("1 1\n")},
		"demo/repo/_notes.txt":          {Data: []byte("not a Go file: keeps its name")},
		"demo/solution/_clamp.go":       {Data: []byte("package demo\n\nfunc Clamp(x int) int { return min(x, 9) }\n")},
		"demo/solution/plain_helper.go": {Data: []byte("package demo\n")},
	}
}

func TestLoadGoTask(t *testing.T) {
	all, err := Load(goTaskFS(goManifest))
	if err != nil {
		t.Fatal(err)
	}
	got := all[0]
	if got.Framework != FrameworkGo || !got.Control() || got.Answers.String() != "yyy" {
		t.Errorf("framework %q, answers %v", got.Framework, got.Answers)
	}
	if strings.Join(got.Tests, ",") != "TestClamp,TestMax" {
		t.Errorf("Tests = %v, want TestClamp,TestMax (Testify and helper are not tests)", got.Tests)
	}
	var files []string
	fs.WalkDir(got.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	want := "repo/_notes.txt repo/clamp.go repo/clamp_test.go repo/go.mod repo/testdata/cases.txt solution/clamp.go solution/plain_helper.go task.toml"
	if strings.Join(files, " ") != want {
		t.Errorf("presented files:\n%s\nwant\n%s", strings.Join(files, " "), want)
	}
	data, err := fs.ReadFile(got.FS, "repo/go.mod")
	if err != nil || !strings.HasPrefix(string(data), "module demo") {
		t.Errorf("repo/go.mod: %q, %v", data, err)
	}
	info, err := fs.Stat(got.FS, "solution/clamp.go")
	if err != nil || info.Name() != "clamp.go" {
		t.Errorf("Stat(solution/clamp.go) = %v, %v", info, err)
	}
	if _, err := fs.Stat(got.FS, "repo/_clamp.go"); err == nil {
		t.Error("the stored name repo/_clamp.go is visible; only the presented name should be")
	}
	sum, err := got.Checksum()
	if err != nil || sum == "" {
		t.Errorf("Checksum: %v", err)
	}
}

func TestLoadGoTaskBad(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(goManifest, old) {
			panic("test setup: " + old)
		}
		return strings.Replace(goManifest, old, new, 1)
	}
	cases := []struct {
		name     string
		manifest string
		edit     func(fstest.MapFS)
		want     []string
	}{
		{"no go.mod", goManifest, func(m fstest.MapFS) { delete(m, "demo/repo/_go.mod") }, []string{`"framework"`, "repo/go.mod is missing"}},
		{"test source", replace(`source = "clamp.go"`, `source = "clamp_test.go"`), nil, []string{`"source"`}},
		{"unprotected test", replace(`test_files = ["clamp_test.go", "testdata/cases.txt"]`, `test_files = ["clamp_test.go"]`), nil, []string{`"test_files"`, "lacks testdata/cases.txt", "protects every"}},
		{"not a test file", replace(`"testdata/cases.txt"]`, `"testdata/cases.txt", "go.mod"]`), nil, []string{`"test_files"`, `"go.mod" is neither`}},
		{"both names", goManifest, func(m fstest.MapFS) { m["demo/repo/clamp.go"] = &fstest.MapFile{Data: []byte("package demo\n")} }, []string{"repo/_clamp.go", "repo/clamp.go", "keep one"}},
		{"no test funcs", goManifest, func(m fstest.MapFS) {
			m["demo/repo/_clamp_test.go"] = &fstest.MapFile{Data: []byte("package demo\n")}
		}, []string{`"test_files"`, "func TestXxx"}},
		{"test file does not parse", goManifest, func(m fstest.MapFS) {
			m["demo/repo/_clamp_test.go"] = &fstest.MapFile{Data: []byte("package demo\nfunc (\n")}
		}, []string{"demo/task.toml", "parsing clamp_test.go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := goTaskFS(c.manifest)
			if c.edit != nil {
				c.edit(fsys)
			}
			_, err := Load(fsys)
			if err == nil {
				t.Fatal("Load accepted a bad Go task")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
