package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"bench/detect"
)

// hermeticDetect points HOME and TMPDIR at fresh folders and keeps the machine's
// git configuration out.
func hermeticDetect(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"home", "tmp"} {
		if err := os.Mkdir(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", filepath.Join(base, "home"))
	t.Setenv("TMPDIR", filepath.Join(base, "tmp"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	return base
}

func TestDetectReplayGolden(t *testing.T) {
	hermeticDetect(t)
	out, _, err := runCLI(t, "detect")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "detect.golden", out)
}

func TestDetectReplayJSONGolden(t *testing.T) {
	hermeticDetect(t)
	out, _, err := runCLI(t, "detect", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []map[string]any `json:"cases"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Cases) != 9 {
		t.Fatalf("not {\"cases\": [9 cases]}: %v\n%s", err, out)
	}
	for i, c := range doc.Cases {
		if c["case"] != float64(i+1) || c["name"] == "" {
			t.Errorf("case %d: case %v name %v", i+1, c["case"], c["name"])
		}
	}
	checkGolden(t, "detect_json.golden", out)
}

func TestDetectCheckPasses(t *testing.T) {
	hermeticDetect(t)
	out, _, err := runCLI(t, "detect", "--check")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out != "detect: all 9 cases match the expected table\n" {
		t.Errorf("output %q", out)
	}
}

func TestDetectCheckFailsWithPerCaseDiff(t *testing.T) {
	base := hermeticDetect(t)
	want, err := detect.Expected()
	if err != nil {
		t.Fatal(err)
	}
	want[0].Profile = "coding" // case 1: the lone copy wrongly expected coding
	want[6].Toolset = nil      // case 7: focus wrongly expected to keep the toolset
	want[6].Demoted = 0        //
	data, _ := json.Marshal(want)
	path := filepath.Join(base, "wrong.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCLI(t, "detect", "--check", "--expected", path)
	if code := exitCode(err, io.Discard); code != 1 {
		t.Fatalf("exit code %d, want 1 (err %v)", code, err)
	}
	wantOut := "case 1 (lone copy in an empty directory):\n" +
		"  profile: got \"general\", want \"coding\"\n" +
		"case 7 (lone copy after git init, focus):\n" +
		"  toolset: got [coding], want none\n" +
		"  demoted: got 18, want 0\n"
	if out != wantOut {
		t.Errorf("stdout:\n%s\nwant:\n%s", out, wantOut)
	}
	if errOut != "detect: 2 of 9 cases differ from the expected table\n" {
		t.Errorf("stderr %q", errOut)
	}
}

func TestDetectCheckBadExpectedFile(t *testing.T) {
	base := hermeticDetect(t)
	path := filepath.Join(base, "bad.json")
	os.WriteFile(path, []byte(`[{"case": 1, "profil": "coding"}]`), 0o644)
	_, _, err := runCLI(t, "detect", "--check", "--expected", path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `unknown field "profil"`) {
		t.Errorf("error %v; want one naming the file and the field", err)
	}
}

func TestDetectDirJSONContract(t *testing.T) {
	base := hermeticDetect(t)
	proj := filepath.Join(base, "w", "proj")
	if err := os.MkdirAll(filepath.Join(proj, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(proj, "go.mod"), []byte("module x\n"), 0o644)
	link := filepath.Join(base, "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "detect", "--dir", filepath.Join(link, "src"), "--mode", " Strict ", "--platform", " CLI", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := map[string]any{
		"dir": filepath.Join(proj, "src"), "mode": "focus", "platform": "cli",
		"profile": "coding", "naive_profile": "general", "root": proj, "guidance": true,
		"toolset": []any{"coding"},
	}
	for k, v := range want {
		if b1, _ := json.Marshal(got[k]); string(b1) != jsonText(v) {
			t.Errorf("%s = %s, want %s", k, b1, jsonText(v))
		}
	}
	if s, _ := got["snapshot"].(string); !strings.Contains(s, "\n- Root: "+proj+"\n- Project: go.mod\n") {
		t.Errorf("snapshot %q", s)
	}
	if d, _ := got["demoted"].([]any); len(d) != 18 {
		t.Errorf("demoted %v", got["demoted"])
	}

	out, _, err = runCLI(t, "detect", "--dir", filepath.Join(base, "home"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var general map[string]any
	json.Unmarshal([]byte(out), &general)
	for k, v := range map[string]string{"mode": `"auto"`, "platform": `"cli"`, "profile": `"general"`, "root": `""`, "guidance": "false", "snapshot": `""`, "toolset": "null", "demoted": "null"} {
		if b, _ := json.Marshal(general[k]); string(b) != v {
			t.Errorf("general: %s = %s, want %s", k, b, v)
		}
	}
	if len(general) != 10 {
		t.Errorf("%d fields, want the 10 of the contract: %v", len(general), general)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestDetectDirText(t *testing.T) {
	base := hermeticDetect(t)
	out, _, err := runCLI(t, "detect", "--dir", base, "--mode", "on", "--platform", "telegram")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"dir:         " + base + "\n", "mode:        on\n", "platform:    telegram\n", "profile:     coding\n", "root:        –\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
}

func TestDetectGuidance(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "detect", "--guidance")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out, detect.Guidance+"\n\n") {
		t.Errorf("the guidance is not printed first")
	}
	tail := out[len(detect.Guidance)+2:]
	if !strings.HasPrefix(tail, fmt.Sprintf("%d characters, ", utf8.RuneCountInString(detect.Guidance))) || !strings.Contains(tail, " tokens (cl100k_base), ") || !strings.HasSuffix(tail, " tokens (o200k_base)\n") {
		t.Errorf("size line %q", tail)
	}
}

func TestDetectBadUsage(t *testing.T) {
	base := hermeticDetect(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"detect", "--mode", "on"}, "--mode and --platform apply to --dir DIR"},
		{[]string{"detect", "--expected", "x.json"}, "--expected is only used with --check"},
		{[]string{"detect", "somewhere"}, "use --dir DIR"},
		{[]string{"detect", "--dir", filepath.Join(base, "missing")}, filepath.Join(base, "missing") + " does not exist"},
	} {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestDetectFormats(t *testing.T) {
	t.Parallel()
	out, _, err := runCLI(t, "detect", "-f", "csv")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if err != nil || len(lines) != 10 || lines[0] != "case,platform,mode,naive rule,profile,guidance,snapshot,toolset,demoted" {
		t.Errorf("csv (err %v):\n%s", err, out)
	}
	md, _, err := runCLI(t, "detect", "--format", "markdown")
	if err != nil || !strings.HasPrefix(md, "| case") {
		t.Errorf("markdown (err %v):\n%s", err, md)
	}
	if _, _, err := runCLI(t, "detect", "--dir", t.TempDir(), "-f", "csv"); err == nil || !strings.Contains(err.Error(), "text or json") {
		t.Errorf("--dir -f csv: err %v", err)
	}
}
