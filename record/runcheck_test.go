package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validRunJSON is a run.json as bench writes it.
func validRunJSON(t testing.TB) []byte {
	t.Helper()
	r := sampleRun()
	r.Format = FormatVersion
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withField returns the run.json b with its field name set to the raw JSON
// value (deleted when value is "").
func withField(t testing.TB, b []byte, name, value string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if value == "" {
		delete(m, name)
	} else {
		m[name] = json.RawMessage(value)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// malformedRuns are run.json contents no run of bench holds, each with
// what the error must say.
func malformedRuns(t testing.TB) []struct{ name, body, want string } {
	v := validRunJSON(t)
	f := func(name, value string) string { return string(withField(t, v, name, value)) }
	return []struct{ name, body, want string }{
		{"no tasks", f("tasks", "[]"), `field "tasks" is empty or missing`},
		{"tasks null", f("tasks", "null"), `field "tasks" is empty or missing`},
		{"tasks missing", f("tasks", ""), `field "tasks" is empty or missing`},
		{"tasks not a list", f("tasks", `"leap_year"`), `field "tasks" holds a JSON string where a list belongs`},
		{"task without a name", f("tasks", `[{"checksum":"x"}]`), `field "tasks[0].name" is empty`},
		{"task named twice", f("tasks", `[{"name":"a"},{"name":"a"}]`), `field "tasks[1].name" names the task a a second time`},
		{"task name a path", f("tasks", `[{"name":"../up"}]`), `field "tasks[0].name" is "../up"`},
		{"task name a control byte", f("tasks", `[{"name":"a\u001b[2J"}]`), `field "tasks[0].name" is "a\x1b[2J"`},
		{"bad answers", f("tasks", `[{"name":"a","answers":"yes"}]`), `field "tasks[0].answers" is "yes"`},
		{"no tracks", f("tracks", "[]"), `field "tracks" is empty or missing`},
		{"track named twice", f("tracks", `["agent","agent"]`), `field "tracks[1]" names the track agent a second time`},
		{"no seeds", f("seeds", "[]"), `field "seeds" is empty or missing`},
		{"negative seed", f("seeds", "[1,-1]"), `field "seeds[1]": seed -1 is negative`},
		{"seed a string", f("seeds", `["1"]`), `field "seeds" holds a JSON string where a whole number belongs`},
		{"fractional seed", f("seeds", `[1.5]`), `field "seeds" holds a JSON number 1.5 where a whole number belongs`},
		{"shard past its count", f("shard", `{"index":3,"count":2}`), `field "shard" is part 3 of 2`},
		{"shard zero", f("shard", `{"index":0,"count":0}`), `field "shard" is part 0 of 0`},
		{"model without a name", f("models", `[{"name":""}]`), `field "models[0].name" is ""`},
		{"model twice", f("models", `[{"name":"m"},{"name":"m"}]`), `names the model m a second time`},
		{"negative turns", f("max_turns", "-3"), `field "max_turns" is -3`},
		{"negative timeout", f("episode_timeout_ms", "-1"), `field "episode_timeout_ms" is -1`},
		{"negative workspace limit", f("workspace_limit", "-1"), `field "workspace_limit" is -1`},
		{"negative reply cap", f("max_reply_bytes", "-5"), `field "max_reply_bytes" is -5`},
		{"top_p above 1", f("top_p", "2"), `field "top_p" is 2`},
		{"negative temperature", f("temperature", "-0.5"), `field "temperature" is -0.5`},
		{"uid with a newline", f("uid", `"a\nb"`), `field "uid" is "a\nb"`},
		{"started not a time", f("started", `"yesterday"`), `field "started" is "yesterday": want an RFC 3339 time`},
		{"format missing", f("format", ""), `no "format" field`},
		{"format newer", f("format", "99"), `format 99 is newer than this bench reads`},
		{"format a string", f("format", `"1"`), `field "format" holds a JSON string where a whole number belongs`},
		{"cut off", string(v[:len(v)/2]), `not valid JSON`},
		{"an array", `[1,2]`, `not a JSON object`},
		{"null", `null`, `not a JSON object`},
		{"empty", ``, `the file is empty`},
		{"trailing garbage", string(v) + "}", `not valid JSON`},
	}
}

// TestReadRunRefusesMalformed: every malformed run.json is an error of one
// line that names the file and the field, never a panic.
func TestReadRunRefusesMalformed(t *testing.T) {
	for _, c := range malformedRuns(t) {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, RunFile), []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
			for name, read := range map[string]func(string) error{
				"Read":       func(d string) error { _, err := Read(d); return err },
				"OpenFolder": func(d string) error { _, err := OpenFolder(d); return err },
			} {
				err := read(dir)
				if err == nil {
					t.Fatalf("%s accepted %s", name, c.body)
				}
				msg := err.Error()
				if !strings.Contains(msg, c.want) || !strings.Contains(msg, filepath.Join(dir, RunFile)) || strings.Contains(msg, "\n") {
					t.Errorf("%s: error %q, want one line naming %s and saying %q", name, msg, RunFile, c.want)
				}
			}
		})
	}
}

// TestReadRunAcceptsWhatBenchWrites: the checks pass every run.json bench
// writes, old ones without the newer fields included.
func TestReadRunAcceptsWhatBenchWrites(t *testing.T) {
	v := validRunJSON(t)
	for name, body := range map[string][]byte{
		"as written":       v,
		"without uid":      withField(t, v, "uid", ""),
		"with uid":         withField(t, v, "uid", `"0f3a"`),
		"oracle only":      withField(t, withField(t, withField(t, v, "model", `""`), "backend", `""`), "tracks", `["oracle"]`),
		"a shard":          withField(t, v, "shard", `{"index":2,"count":3}`),
		"several models":   withField(t, v, "models", `[{"name":"a","digest":""},{"name":"b","digest":"d"}]`),
		"unknown field":    withField(t, v, "from_the_future", `{"x":1}`),
		"repeated seeds":   withField(t, v, "seeds", "[1,2,1]"),
		"design recorded":  withField(t, v, "tasks", `[{"name":"a","checksum":"c","archetype":"control","answers":"yny","origin":"builtin"}]`),
		"sandbox recorded": withField(t, v, "sandbox", `{"fs":"landlock","net":"netns","pid":"pidns"}`),
	} {
		if _, err := parseRun(body); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzParseRun: no input panics the run.json reader; an error is one
// line; what it accepts passes Check and survives a write and a read.
func FuzzParseRun(f *testing.F) {
	f.Add(validRunJSON(f))
	for _, c := range malformedRuns(f) {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseRun(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		if err := r.Check(); err != nil {
			t.Fatalf("accepted a run that fails Check: %v", err)
		}
		_ = r.Settings()
		_ = r.SeveralModels()
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("an accepted run does not encode: %v", err)
		}
		if _, err := parseRun(again); err != nil {
			t.Fatalf("an accepted run, written again, is refused: %v", err)
		}
	})
}

// TestRunCheckTaskAnswers: a task's answers in run.json are empty or in
// the form bench writes them (lesson.Answers.String: three letters y or
// n), and nothing else, though bench predict --answer reads more forms.
func TestRunCheckTaskAnswers(t *testing.T) {
	for answers, ok := range map[string]bool{"": true, "yyn": true, "nnn": true, "YYN": false, "y,y,n": false, "yy": false, "yyyy": false, "yes": false, "abc": false} {
		r := sampleRun()
		r.Format = FormatVersion
		r.Tasks[0].Answers = answers
		err := r.Check()
		if (err == nil) != ok {
			t.Errorf("answers %q: Check() = %v, want ok %v", answers, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "three letters y or n") {
			t.Errorf("answers %q: %v does not say what it wants", answers, err)
		}
	}
}

// TestOneRuleForFolderNames: the writer's check of a trajectory folder's
// name and run.json's check of a name refuse the same names, PlainName's.
func TestOneRuleForFolderNames(t *testing.T) {
	for name, plain := range map[string]bool{
		"leap_year": true, "agent": true, "qwen3-8b": true, "posture=on": true, "a b": true,
		"": false, " ": false, ".": false, "..": false, "a/b": false, `a\b`: false, "a\x00": false, "a\x1b[2J": false, "\t": false, "a\xff": false,
	} {
		if PlainName(name) != plain {
			t.Errorf("PlainName(%q) = %v, want %v", name, !plain, plain)
		}
		if (checkPathPart("track", name) == nil) != plain || (checkFolderName("tracks[0]", name) == nil) != plain {
			t.Errorf("%q: the writer's check says %v, run.json's %v; want both %v", name, checkPathPart("track", name), checkFolderName("tracks[0]", name), plain)
		}
	}
}
