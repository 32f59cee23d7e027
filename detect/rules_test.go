package detect

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeMode(t *testing.T) {
	for in, want := range map[string]string{
		"": "auto", "auto": "auto", " AUTO ": "auto", "bogus": "auto",
		"focus": "focus", "Strict": "focus", " lean\t": "focus",
		"on": "on", "TRUE": "on", "yes": "on", "1": "on", " Always ": "on",
		"off": "off", "false": "off", "No": "off", "0": "off", "NEVER": "off",
	} {
		if got := NormalizeMode(in); got != want {
			t.Errorf("NormalizeMode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInteractivePlatforms(t *testing.T) {
	for in, want := range map[string]bool{
		"": true, "cli": true, " CLI ": true, "Tui": true, "acp": true, "DESKTOP": true,
		"telegram": false, "discord": false, " Slack ": false, "web": false,
	} {
		if got := Interactive(NormalizePlatform(in)); got != want {
			t.Errorf("Interactive(NormalizePlatform(%q)) = %v, want %v", in, got, want)
		}
	}
}

// seq returns n file paths under dir with a non-code extension.
func seq(dir string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/f%04d.txt", dir, i)
	}
	return out
}

func TestRules(t *testing.T) {
	deep := "p/1/2/3/4/5/6" // six levels below p: p is the 7th directory walked
	tests := []struct {
		name     string
		files    []string // below the floor; "/" suffix = folder
		dir      string
		mode     string
		platform string
		profile  string
		naive    string
		root     string // below the floor; "" = none
	}{
		{"empty folder", []string{"a/"}, "a", "auto", "cli", "general", "general", ""},
		{"marker file", []string{"a/requirements.txt"}, "a", "auto", "cli", "coding", "general", "a"},
		{"marker folder", []string{"a/Makefile/"}, "a", "auto", "cli", "coding", "general", "a"},
		{"dot marker", []string{"a/.cursorrules"}, "a", "auto", "cli", "coding", "general", "a"},
		{"marker in 7th directory", []string{"p/go.mod", deep + "/"}, deep, "auto", "cli", "coding", "general", "p"},
		{"marker in 8th directory", []string{"go.mod", deep + "/"}, deep, "auto", "cli", "general", "general", ""},
		{"marker in $HOME skipped", []string{"home/Makefile", "home/proj/"}, "home/proj", "auto", "cli", "general", "general", ""},
		{"marker below $HOME", []string{"home/proj/Makefile"}, "home/proj", "auto", "cli", "coding", "general", "home/proj"},
		{"marker in temp root skipped", []string{"tmp/package.json", "tmp/x/"}, "tmp/x", "auto", "cli", "general", "general", ""},
		{"marker below temp root", []string{"tmp/x/package.json"}, "tmp/x", "auto", "cli", "coding", "general", "tmp/x"},
		{"git folder with code", []string{"r/.git/", "r/main.py"}, "r", "auto", "cli", "coding", "coding", "r"},
		{"git file with code", []string{"r/.git", "r/main.go"}, "r", "auto", "cli", "coding", "coding", "r"},
		{"git without code", []string{"r/.git/", "r/notes.md"}, "r", "auto", "cli", "general", "coding", ""},
		{"git root above dir", []string{"r/.git/", "r/lib.rs", "r/docs/"}, "r/docs", "auto", "cli", "coding", "general", "r"},
		{"git root wins over marker root", []string{"r/.git/", "r/x.sh", "r/sub/Makefile"}, "r/sub", "auto", "cli", "coding", "general", "r"},
		{"git root at $HOME ignored", []string{"home/.git/", "home/x.py", "home/proj/"}, "home/proj", "auto", "cli", "general", "general", ""},
		{"upper-case extension", []string{"r/.git/", "r/MAIN.PY"}, "r", "auto", "cli", "coding", "coding", "r"},
		{"code in a subfolder", []string{"r/.git/", "r/src/app.ts"}, "r", "auto", "cli", "coding", "coding", "r"},
		{"code two levels down", []string{"r/.git/", "r/src/pkg/app.ts"}, "r", "auto", "cli", "general", "coding", ""},
		{"code in a dot folder", []string{"r/.git/", "r/.tools/x.py"}, "r", "auto", "cli", "general", "coding", ""},
		{"code in node_modules", []string{"r/.git/", "r/node_modules/x.js"}, "r", "auto", "cli", "general", "coding", ""},
		{"code in build", []string{"r/.git/", "r/build/x.c"}, "r", "auto", "cli", "general", "coding", ""},
		{"code in vendor", []string{"r/.git/", "r/vendor/x.go"}, "r", "auto", "cli", "general", "coding", ""},
		{"code file in git folder only", []string{"r/.git/hook.sh"}, "r", "auto", "cli", "general", "coding", ""},
		{"500th entry is code", append(seq("r", 497), "r/.git/", "r/src/a.py"), "r", "auto", "cli", "coding", "coding", "r"},
		{"501st entry is code", append(seq("r", 498), "r/.git/", "r/src/a.py"), "r", "auto", "cli", "general", "coding", ""},
		{"telegram", []string{"a/setup.py"}, "a", "auto", " Telegram ", "general", "general", ""},
		{"platform trimmed", []string{"a/setup.py"}, "a", "auto", " CLI ", "coding", "general", "a"},
		{"empty platform", []string{"a/setup.py"}, "a", "auto", "", "coding", "general", "a"},
		{"off with marker", []string{"a/setup.py"}, "a", " OFF ", "cli", "general", "general", ""},
		{"on in empty folder", []string{"a/"}, "a", "always", "cli", "coding", "general", ""},
		{"on on telegram", []string{"a/setup.py"}, "a", "on", "telegram", "coding", "general", "a"},
		{"focus alias", []string{"a/setup.py"}, "a", "Lean", "cli", "coding", "general", "a"},
		{"unknown mode is auto", []string{"a/"}, "a", "sometimes", "cli", "general", "general", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.make(tc.files...)
			d, err := Detect(e.path(tc.dir), tc.mode, tc.platform)
			if err != nil {
				t.Fatal(err)
			}
			wantRoot := ""
			if tc.root != "" {
				wantRoot = e.path(tc.root)
			}
			if d.Profile != tc.profile || d.NaiveProfile != tc.naive || d.Root != wantRoot {
				t.Errorf("profile %s, naive %s, root %q; want %s, %s, %q", d.Profile, d.NaiveProfile, d.Root, tc.profile, tc.naive, wantRoot)
			}
			if d.Guidance != (tc.profile == "coding") {
				t.Errorf("guidance %v for profile %s", d.Guidance, d.Profile)
			}
			if (d.Snapshot != "") != (wantRoot != "") {
				t.Errorf("snapshot %q with root %q", d.Snapshot, wantRoot)
			}
		})
	}
}

func TestFocusNarrowsToolsetAndDemotes(t *testing.T) {
	e := newEnv(t)
	e.make("a/Cargo.toml")
	d, err := Detect(e.path("a"), "focus", "cli")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Toolset, []string{"coding"}) || len(d.Demoted) != 18 || d.Demoted[0] != "apple" || d.Demoted[17] != "yuanbao" {
		t.Errorf("toolset %v, demoted %v", d.Toolset, d.Demoted)
	}
	for _, mode := range []string{"auto", "on"} {
		d, _ := Detect(e.path("a"), mode, "cli")
		if d.Toolset != nil || d.Demoted != nil {
			t.Errorf("mode %s: toolset %v, demoted %v; want none", mode, d.Toolset, d.Demoted)
		}
	}
	d, _ = Detect(e.path("a"), "focus", "telegram")
	if d.Profile != "general" || d.Toolset != nil || d.Demoted != nil {
		t.Errorf("focus on telegram: %+v", d)
	}
}

func TestSymlinksResolved(t *testing.T) {
	e := newEnv(t)
	e.make("real/proj/pyproject.toml", "real/proj/sub/", "links/")
	link := e.path("links/proj")
	if err := os.Symlink(e.path("real/proj"), link); err != nil {
		t.Fatal(err)
	}
	d, err := Detect(filepath.Join(link, "sub"), "auto", "cli")
	if err != nil {
		t.Fatal(err)
	}
	if d.Dir != e.path("real/proj/sub") || d.Root != e.path("real/proj") || d.Profile != "coding" {
		t.Errorf("dir %q root %q profile %s; want the resolved paths and coding", d.Dir, d.Root, d.Profile)
	}
}

func TestHomeAndTempCompareResolved(t *testing.T) {
	e := newEnv(t)
	e.make("realhome/Makefile", "realhome/proj/", "realtmp/Makefile", "realtmp/x/")
	if err := os.Symlink(e.path("realhome"), e.path("homelink")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.path("realtmp"), e.path("tmplink")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", e.path("homelink"))
	t.Setenv("TMPDIR", e.path("tmplink")+"/")
	for _, dir := range []string{"realhome/proj", "realtmp/x"} {
		d, err := Detect(e.path(dir), "auto", "cli")
		if err != nil {
			t.Fatal(err)
		}
		if d.Profile != "general" {
			t.Errorf("%s: profile %s; the marker in the symlinked HOME/TMPDIR must be skipped", dir, d.Profile)
		}
	}
}

func TestBrokenSymlinkIsNoMarker(t *testing.T) {
	e := newEnv(t)
	e.make("a/")
	if err := os.Symlink(e.path("nowhere"), e.path("a/go.mod")); err != nil {
		t.Fatal(err)
	}
	if d, _ := Detect(e.path("a"), "auto", "cli"); d.Profile != "general" {
		t.Errorf("a dangling go.mod link counted as a marker")
	}
}

func TestDetectBadDirectory(t *testing.T) {
	e := newEnv(t)
	e.make("file.txt")
	for _, dir := range []string{"missing", "file.txt"} {
		_, err := Detect(e.path(dir), "auto", "cli")
		if err == nil {
			t.Errorf("Detect(%s) succeeded", dir)
			continue
		}
		if want := e.path(dir); !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
}
