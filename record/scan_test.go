package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"bench/trackfacts"
)

// writeLines writes run.json and an episodes.jsonl of the given lines
// (joined by newlines, no newline after the last) into a new run folder.
func writeLines(t *testing.T, lines ...string) string {
	t.Helper()
	dir := t.TempDir()
	run := sampleRun()
	run.Format = FormatVersion
	raw, err := json.Marshal(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, RunFile), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, EpisodesFile), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// episodeLine is the JSON line of sample episode i changed by edit.
func episodeLine(t testing.TB, i int, edit func(*Episode)) string {
	t.Helper()
	ep := sampleEpisode(i)
	ep.Format, ep.Run = FormatVersion, "run-1"
	if edit != nil {
		edit(&ep)
	}
	b, err := json.Marshal(ep)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// trickyLines are episode lines that only encoding/json reads right, or
// that it refuses: each must come out of Folder.Scan as out of Read.
func trickyLines(t testing.TB) []string {
	return []string{
		episodeLine(t, 1, nil),
		episodeLine(t, 2, func(e *Episode) { e.ToolCalls, e.Steps, e.FailedTests = nil, []string{}, nil }),
		episodeLine(t, 3, func(e *Episode) {
			e.Task, e.Steps = "leap_yéar", []string{`a"b`, "c\\d", "<e>"}
			e.Sandbox = &Sandbox{FS: "landlock", Net: "netns", PID: "pidns"}
			e.TrajectorySHA256 = "sha256:ABC"
		}),
		episodeLine(t, 4, func(e *Episode) { e.ExitReason, e.ErrorKind = ExitError, ErrorServer }),
		episodeLine(t, 4, nil), // a lost episode redone: silent
		episodeLine(t, 5, func(e *Episode) { e.ExitReason = ExitInterrupted }),
		episodeLine(t, 5, nil), // an interrupted one redone: silent
		episodeLine(t, 2, nil), // a repeat: a warning, the later line kept
		episodeLine(t, 6, func(e *Episode) {
			e.Passed, e.FilesWritten = false, []string{"a.py"}
			e.Causes = []Cause{{Name: CauseLostContent, Evidence: "lost `import re`", Lost: []string{"import re"}, Fallback: true}}
		}),
		`{"format":1,"task":"files","track":"agent","seed":18,"files_written":["a\u0062.py",1]}`,
		`{"format":1,"task":"le\u0061p","track":"agent","seed":6,"model":"m","tool_calls":["a\u0062"]}`,
		`{"format":1,"Task":"upper","track":"agent","seed":7}`,
		`{"format":1,"task":"extra","track":"agent","seed":8,"new_field":{"x":[1,2]}}`,
		`{"format":1,"task":"nulls","track":"agent","seed":9,"model":null,"turns":null,"passed":null,"steps":[null,"x"]}`,
		`{"format":1,"task":"dup","track":"agent","seed":10,"steps":["x","y"],"steps":[],"task":"dup2"}`,
		`{"format":1,"task":"bad-type","track":"agent","seed":11,"wall_ms":"slow"}`,
		`{"format":1,"task":"bad-type","track":"agent","seed":12,"seed":1.5}`,
		`{"format":1,"task":"bad-sandbox","track":"agent","seed":13,"sandbox":{"fs":1}}`,
		`{"format":1,"task":"bad-list","track":"agent","seed":14,"failed_tests":[1]}`,
		`{"format":1,"task":"big","track":"agent","seed":12345678901234567890}`,
		`{"format":1,"task":"neg","track":"agent","seed":-3, "turns" : 2 ,"tool_calls": [ "a" , "b" ] }`,
		`{"format":1,"task":"neg","track":"agent","seed":4294967293}`, // packs as -3 would in 32 bits
		`{"format":1,"task":"neg","track":"agent","seed":-3,"repeat":2048}`,
		"{\"format\":1,\"task\":\"bad-utf8-\xff\",\"track\":\"agent\",\"seed\":15}",
		`{"format":1,"task":"a\u0000b","track":"c","seed":17}`, // names of one label must not run into each other
		`{"format":1,"task":"a","track":"b\u0000c","seed":17}`,
		`{"format":1,"task":"causes","track":"agent","seed":19,"causes":null}`,
		`{"format":1,"task":"causes","track":"agent","seed":20,"causes":[]}`,
		`{"format":1,"task":"causes","track":"agent","seed":21,"causes":[null]}`,
		`{"format":1,"task":"causes","track":"agent","seed":22,"causes":[{"name":"wrong_fix"}],"causes":[{"evidence":"x"}]}`,
		`{"format":1,"task":"causes","track":"agent","seed":23,"causes":[{"name":"wrong_fix","Name":"no_change"}]}`,
		`{"format":1,"task":"causes","track":"agent","seed":24,"causes":[{"name":"no_change","name":"budget","other":1}]}`,
		`{"format":1,"task":"causes","track":"agent","seed":25,"causes":[{"name":"no\u005fchange"}]}`,
		`{"format":1,"task":"causes","track":"agent","seed":26,"causes":[{"name":"wrong_fix","tests":[1]}]}`,
		`{"format":1,"task":"causes","track":"agent","seed":27,"causes":[{"name":"wrong_fix","evidence":"bad \x escape"}]}`,
		"{\"format\":1,\"task\":\"causes\",\"track\":\"agent\",\"seed\":28,\"causes\":[{\"name\":\"wrong_fix\",\"evidence\":\"a\tcontrol\"}]}",
		"{\"format\":1,\"task\":\"causes\",\"track\":\"agent\",\"seed\":29,\"error\":\"bad-utf8-\xff \\\"quoted\\\"\",\"causes\":[{\"name\":\"budget\",\"fallback\":\"yes\"}]}",
		`{"format":1,"task":"causes","track":"agent","seed":30,"causes":[{"name":"budget","evidence":"\ud800 \u00e9 \/ \b\f\n\r\t","tests":["a\"b",null],"file":"f","lost":null,"fallback":true}, {"name":"timeout"} ]}`,
		`{"format":1,"task":"causes","track":"agent","seed":31,"causes":[{"name":"budget","evidence":"\u12G4"}]}`,
		`{"format":1,"task":"tamper","track":"agent","seed":32,"tamper_reasons":[{"code":"c","detail":"d \"e\""}],"failed_tests":["t\u0031"]}`,
		`{"format":1,"task":"tamper","track":"agent","seed":33,"tamper_reasons":[{"code":"c","extra":true}]}`,
		episodeLine(t, 7, func(e *Episode) { e.Variant = "max-turns=5 posture=on" }),
		`{"format":1,"task":"variant","track":"agent","seed":34,"variant":"posture=\u006fn"}`,
		`{"format":1,"task":"variant","track":"agent","seed":35,"variant":null}`,
		`{"format":1,"task":"variant","track":"agent","seed":36,"variant":5}`,
		`[1,2]`,
		`null`,
		`{}`,
		`{"format":1,"task":"leap_year","track":"agent","seed":16,"passed":true,"tests_pass`, // torn
	}
}

// scanned is a Line as a test compares it: its bytes as strings, its
// lists decoded.
type scanned struct {
	Task, Track, Model, Variant, ExitReason string
	ErrorKind                               string
	ToolCalls, Steps                        []string
	Seed, Repeat, TestsPassed, TestsTotal   int
	Turns, Tokens, EstTokens                int
	Retries, CutReplies                     int
	GradingTimedOut, TrajectoryMissing      bool
	Verdict                                 Verdict
	Cell                                    int
	Causes                                  CauseSet
}

// snapshot copies what l says, lists as nil when absent or null.
func snapshot(l *Line) scanned {
	list := func(raw []byte) []string {
		var out []string
		for s := range Strings(raw) {
			out = append(out, string(s))
		}
		return out
	}
	return scanned{string(l.Task), string(l.Track), string(l.Model), string(l.Variant), string(l.ExitReason), string(l.ErrorKind),
		list(l.ToolCalls), list(l.Steps), l.Seed, l.Repeat, l.TestsPassed, l.TestsTotal, l.Turns, l.Tokens, l.EstTokens,
		l.Retries, l.CutReplies, l.GradingTimedOut, l.TrajectoryMissing, l.Verdict, l.Cell, l.Causes}
}

// collect is the episodes a scan passes, each at its place (a later line
// of an episode in the place of the earlier one).
func collect(t *testing.T, scan func(func(*Line) error) error) []scanned {
	t.Helper()
	var out []scanned
	err := scan(func(l *Line) error {
		switch {
		case l.Replaces && l.Pos < len(out):
			out[l.Pos] = snapshot(l)
		case !l.Replaces && l.Pos == len(out):
			out = append(out, snapshot(l))
		default:
			t.Fatalf("line at %d (replaces %v) after %d episodes", l.Pos, l.Replaces, len(out))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readBothWays reads the run folder dir with Read and streams it with
// Folder.Scan, and returns the two, Scan's warnings and the folder.
func readBothWays(t *testing.T, dir string) (Data, []scanned, []string, Folder) {
	t.Helper()
	data, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	got := collect(t, func(visit func(*Line) error) error {
		var err error
		warnings, err = f.Scan(visit)
		return err
	})
	return data, got, warnings, f
}

// TestScanReadsAsRead: streaming a folder passes the episodes Read keeps,
// in its order, with the same warnings, whichever decoder reads a line.
func TestScanReadsAsRead(t *testing.T) {
	dir := writeLines(t, trickyLines(t)...)
	data, got, warnings, f := readBothWays(t, dir)
	want := collect(t, data.Scan)
	if len(data.Warnings) < 5 || len(want) < 16 {
		t.Fatalf("the fixture lost its point: %d episodes, warnings %q", len(want), data.Warnings)
	}
	if !reflect.DeepEqual(got, want) || !slices.Equal(warnings, data.Warnings) {
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("episode %d:\n got %#v\nwant %#v", i, got[i], want[i])
			}
		}
		t.Fatalf("Scan differs from Read:\n got %d episodes, warnings %q\nwant %d episodes, warnings %q", len(got), warnings, len(want), data.Warnings)
	}
	if f.UID != data.UID || f.UID == "" {
		t.Errorf("identity %q, Read's %q", f.UID, data.UID)
	}
}

func TestLineKeepsWhatViewsRead(t *testing.T) {
	ep := sampleEpisode(3)
	ep.ExitReason, ep.ErrorKind, ep.GradingTimedOut, ep.Retries, ep.CutReplies = ExitError, ErrorCallTimeout, true, 2, 1
	got := collect(t, Data{Episodes: []Episode{ep}}.Scan)
	want := []scanned{{
		Task: "leap_year", Track: "agent", ExitReason: string(ExitError), ErrorKind: string(ErrorCallTimeout),
		ToolCalls: ep.ToolCalls, Steps: ep.Steps, Seed: 3, Repeat: 1, TestsPassed: 3, TestsTotal: 4, Turns: 4,
		Tokens: 1003 + 200, EstTokens: 990 + 210, Retries: 2, CutReplies: 1, GradingTimedOut: true,
		Verdict: Verdict{StatusLost, FlawNone},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v\nwant %#v", got, want)
	}
}

func TestScanRefusesANewerFormat(t *testing.T) {
	dir := writeLines(t, episodeLine(t, 1, nil), episodeLine(t, 2, func(e *Episode) { e.Format = FormatVersion + 1 }))
	_, want := Read(dir)
	f, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Scan(func(*Line) error { return nil })
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Fatalf("got error %v, want %v", err, want)
	}
}

func TestStrings(t *testing.T) {
	for raw, want := range map[string][]string{
		``: nil, `null`: nil, `[]`: nil, `["a"]`: {"a"}, ` [ "a" , "b\"c" , "\u003cd\u003e" ]`: {"a", `b"c`, "<d>"},
	} {
		var got []string
		for s := range Strings([]byte(raw)) {
			got = append(got, string(s))
		}
		if !slices.Equal(got, want) {
			t.Errorf("Strings(%s) = %q, want %q", raw, got, want)
		}
	}
}

// TestPlainFieldsAreEpisodes checks that the plain reader knows every field
// of Episode: a field it does not know sends every line to encoding/json.
func TestPlainFieldsAreEpisodes(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[Episode]().Fields() {
		names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
	}
	known := slices.Sorted(slices.Values(plainFields))
	for _, name := range names {
		if !slices.Contains(known, name) {
			t.Errorf("the plain reader does not know Episode's field %s", name)
		}
	}
	var l outcomeLine
	for _, name := range known {
		if l.set(&scanner{b: []byte("{}")}, fieldOf([]byte(name))) && name != "sandbox" {
			t.Errorf("field %s takes an object", name)
		}
	}
}

func TestSampleLinesArePlain(t *testing.T) {
	for i, line := range []string{
		episodeLine(t, 1, nil),
		episodeLine(t, 2, func(e *Episode) {
			e.Model, e.Host, e.Sandbox, e.ErrorKind, e.Error = "qwen3:8b", "http://h", &Sandbox{"landlock", "netns", "pidns"}, ErrorModel, "refused"
			e.TrajectorySHA256, e.GradingTimedOut = "abc", true
			e.WorkflowCalls, e.WorkflowTokens, e.WorkflowEstTokens = 1, 600, 580
			e.FilesWritten = []string{"leap.py", "sub/util.py"} // every episode that wrote has them: they stay plain
		}),
		episodeLine(t, 3, func(e *Episode) { // a failed episode of a run that records causes, and an error quoting a test's output
			e.Passed, e.Error, e.ErrorKind = false, "the server said \"no\"\n\tat line 3 \\ é", ErrorModel
			e.FailedTests = []string{"test_\"quoted\""}
			e.Causes = []Cause{
				{Name: CauseWrongFix, Evidence: "test_a still fails: `assert \"x\" == y`", Tests: []string{"test_a", "test_b"}, File: "leap.py"},
				{Name: CauseLostContent, Evidence: "lost <import re>", Lost: []string{"import re", "def f():"}, Fallback: true},
				{Name: "made_up", Evidence: "?"},
			}
			e.TamperReasons = []TamperReason{{Code: "test_file_changed", Detail: "tests/test_leap.py: \"changed\""}}
		}),
		episodeLine(t, 4, func(e *Episode) { e.Passed, e.Causes = false, []Cause{} }),
		episodeLine(t, 5, func(e *Episode) { e.Variant = "max-turns=5 posture=on" }),
	} {
		var l outcomeLine
		if !l.readPlain([]byte(line)) {
			t.Errorf("line %d is read by encoding/json, not field by field: %s", i, line)
		}
	}
}

// slimEpisode is the fields of a line a report reads, for encoding/json
// (BenchmarkDecodeLine's comparison).
type slimEpisode struct {
	Format              int             `json:"format"`
	Task                string          `json:"task"`
	Track               string          `json:"track"`
	Model               string          `json:"model"`
	Seed                int             `json:"seed"`
	Repeat              int             `json:"repeat"`
	Passed              bool            `json:"passed"`
	TestsPassed         int             `json:"tests_passed"`
	TestsTotal          int             `json:"tests_total"`
	ExitReason          string          `json:"exit_reason"`
	ErrorKind           string          `json:"error_kind"`
	Turns               int             `json:"turns"`
	ToolCalls           json.RawMessage `json:"tool_calls"`
	Steps               json.RawMessage `json:"steps"`
	PromptTokens        int             `json:"prompt_tokens"`
	CompletionTokens    int             `json:"completion_tokens"`
	EstPromptTokens     int             `json:"est_prompt_tokens"`
	EstCompletionTokens int             `json:"est_completion_tokens"`
	Retries             int             `json:"retries"`
	CutReplies          int             `json:"cut_replies"`
	GradingTimedOut     bool            `json:"grading_timed_out"`
	TrajectorySHA256    string          `json:"trajectory_sha256"`
}

// BenchmarkDecodeLine compares ways to decode one episode line: into a
// whole Episode, into the fields a report reads with encoding/json, and
// as Folder.Scan does; json.Valid alone, one scan of encoding/json, is
// slower than the plain parser.
func BenchmarkDecodeLine(b *testing.B) {
	line := []byte(episodeLineB(b))
	b.Run("Episode", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var ep Episode
			if err := json.Unmarshal(line, &ep); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("slim", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			var ep slimEpisode
			if err := json.Unmarshal(line, &ep); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		var l outcomeLine
		for b.Loop() {
			if err := decodeOutcomeLine(line, &l); err != nil {
				b.Fatal(err)
			}
		}
	})
	failed := []byte(episodeLine(b, 7, func(e *Episode) {
		e.Passed, e.Error = false, `grading said "no"`
		e.Causes = []Cause{{Name: CauseWrongFix, Evidence: "test_a still fails: `assert f(1900) is False`", Tests: []string{"test_a"}, File: "leap.py"}}
	}))
	b.Run("causes-plain", func(b *testing.B) { // a failed episode's line, which went to encoding/json (Episode) before
		b.SetBytes(int64(len(failed)))
		var l outcomeLine
		for b.Loop() {
			if err := decodeOutcomeLine(failed, &l); err != nil || !l.readPlain(failed) {
				b.Fatal("not plain", err)
			}
		}
	})
	b.Run("causes-json", func(b *testing.B) { // the same line as encoding/json reads it, the way it was read before
		b.SetBytes(int64(len(failed)))
		for b.Loop() {
			var ep Episode
			if err := json.Unmarshal(failed, &ep); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("valid", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			json.Valid(line)
		}
	})
}

// episodeLineB is a typical episode line.
func episodeLineB(b *testing.B) string {
	ep := sampleEpisode(7)
	ep.Format, ep.Run, ep.Model = FormatVersion, "run-1", "qwen3:8b"
	ep.Sandbox = &Sandbox{FS: "landlock", Net: "netns", PID: "pidns"}
	raw, err := json.Marshal(ep)
	if err != nil {
		b.Fatal(err)
	}
	return string(raw)
}

// FuzzDecodeOutcomeLine checks that the plain parser accepts only what
// encoding/json reads to the same outcome, and that any line gets
// encoding/json's error.
func FuzzDecodeOutcomeLine(f *testing.F) {
	for _, line := range trickyLines(f) {
		f.Add([]byte(line))
	}
	f.Add([]byte(`{"seed":01}`))
	f.Add([]byte(`{"seed":-}`))
	f.Add([]byte(`{"passed":true,}`))
	f.Add([]byte(`{"steps":["a",]} `))
	f.Add([]byte(`{"task":"a"} x`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var l outcomeLine
		err := decodeOutcomeLine(b, &l)
		var ep Episode
		want := json.Unmarshal(b, &ep)
		if (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
			t.Fatalf("%q: error %v, encoding/json's %v", b, err, want)
		}
		if err != nil {
			return
		}
		wl := lineOf(&ep)
		var p, q placer
		got, _ := p.place(&l, 1)
		exp, _ := q.place(&wl, 1)
		if !reflect.DeepEqual(snapshot(got), snapshot(exp)) || l.format != wl.format {
			t.Fatalf("%q:\n got %#v\nwant %#v", b, snapshot(got), snapshot(exp))
		}
	})
}

func TestTrajectoryName(t *testing.T) {
	for _, c := range []struct {
		seed, repeat int
		want         string
	}{{3, 0, "seed-3"}, {3, 2, "seed-3-r2"}, {-1, 1, "seed--1-r1"}, {0, 0, "seed-0"}} {
		if got := TrajectoryName(c.seed, c.repeat); got != c.want {
			t.Errorf("TrajectoryName(%d, %d) = %q, want %q", c.seed, c.repeat, got, c.want)
		}
		if got := string(AppendTrajectoryName([]byte("x/"), c.seed, c.repeat)); got != "x/"+c.want {
			t.Errorf("AppendTrajectoryName(x/, %d, %d) = %q", c.seed, c.repeat, got)
		}
	}
}

// TestSpecial: special finds a quote, a backslash or a control byte at any
// of the eight places of a word, among any other bytes (UTF-8 included),
// and nothing else.
func TestSpecial(t *testing.T) {
	for _, fill := range []byte{'a', ' ', 0x7f, 0x80, 0xff, '!', '#', '[', ']'} {
		for at := range 8 {
			for _, c := range []byte{'"', '\\', 0, 0x1f, '\n', '\t', 0x20, 0x21, 0x5b, 0x5d, 0x7e, 0xc3} {
				w := bytes.Repeat([]byte{fill}, 8)
				w[at] = c
				want := c == '"' || c == '\\' || c < 0x20 || c >= 0x80 || fill >= 0x80
				if got := special(binary.LittleEndian.Uint64(w)); got != want {
					t.Errorf("special(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}

// TestToolIndex: toolIndex numbers the agent's tools as trackfacts lists
// them, and no other name.
func TestToolIndex(t *testing.T) {
	for i, name := range trackfacts.AgentTools {
		if got := toolIndex([]byte(name)); got != i {
			t.Errorf("toolIndex(%s) = %d, want %d", name, got, i)
		}
	}
	unknown := []string{"", "Read_file", "read_files", "\x1b"}
	for _, name := range trackfacts.AgentTools { // each with its byte at toolAt, one other byte changed
		for _, at := range []int{0, len(name) - 1} {
			if at != toolAt {
				unknown = append(unknown, name[:at]+"#"+name[at+1:])
			}
		}
	}
	for _, name := range unknown {
		if got := toolIndex([]byte(name)); got != -1 {
			t.Errorf("toolIndex(%q) = %d, want -1", name, got)
		}
	}
}

// TestToolTable checks the place toolTable finds and its bytes, and that
// it finds none where every place has a byte two names share.
func TestToolTable(t *testing.T) {
	at, by := toolTable([]string{"abc", "abd", "xbz"})
	if at != 2 || by['c'] != 1 || by['d'] != 2 || by['z'] != 3 || by['a'] != 0 {
		t.Errorf("toolTable: place %d, c %d d %d z %d a %d; want 2, 1, 2, 3, 0", at, by['c'], by['d'], by['z'], by['a'])
	}
	for _, tools := range [][]string{{"aa", "ab", "ba", "bb"}, {"a", "ab"}, nil} {
		if at, _ := toolTable(tools); at != -1 {
			t.Errorf("toolTable(%q) = place %d, want -1", tools, at)
		}
	}
}
