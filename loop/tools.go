package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"bench/model"
	"bench/record"
	"bench/track"
)

// ResultCap is the most bytes of a tool result the model is shown.
const ResultCap = 16 << 10

// MaxFileBytes is the largest file the tools read, write or edit. The task
// files are a few kilobytes; a model's reply is bounded by its context, but
// a misbehaving server (or code run by run_tests writing a huge file) must
// not fill the disk or the memory.
const MaxFileBytes = 1 << 20

// tool is one tool the agent may call.
type tool struct {
	spec   model.Tool
	params []string // required string arguments, in schema order
	run    func(ctx context.Context, env *track.Env, args map[string]string) (string, error)
}

// registry holds the tools by name.
type registry map[string]tool

// newRegistry returns the agent's five tools.
func newRegistry() registry {
	r := registry{}
	r.add("list_files", "List the files under a directory of the workspace, recursively, one relative path per line. Use \".\" for the whole workspace.",
		[]param{{"path", "directory relative to the workspace root"}}, listFiles)
	r.add("read_file", "Return the full text of a file in the workspace.",
		[]param{{"path", "file path relative to the workspace root"}}, readFile)
	r.add("write_file", "Create or replace a file in the workspace with the given content.",
		[]param{{"path", "file path relative to the workspace root"}, {"content", "the complete new content of the file"}}, writeFile)
	r.add("edit_file", "Replace one exact piece of text in a file. The old text must occur exactly once in the file; include enough surrounding lines to make it unique.",
		[]param{{"path", "file path relative to the workspace root"}, {"old", "the exact text to replace"}, {"new", "the text to put in its place"}}, editFile)
	r.add("run_tests", "Run the project's test command in the workspace and return its output with a summary line.",
		nil, runTests)
	return r
}

// param is one string argument of a tool and its description.
type param struct{ name, desc string }

// add registers a tool whose arguments are the required strings params.
func (r registry) add(name, desc string, params []param, run func(context.Context, *track.Env, map[string]string) (string, error)) {
	props := map[string]any{}
	required := []string{}
	names := []string{}
	for _, p := range params {
		props[p.name] = map[string]string{"type": "string", "description": p.desc}
		required = append(required, p.name)
		names = append(names, p.name)
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	if err != nil {
		panic(err) // static data; cannot fail
	}
	r[name] = tool{spec: model.Tool{Name: name, Description: desc, Parameters: schema}, params: names, run: run}
}

// specs returns the tool descriptions sorted by name.
func (r registry) specs() []model.Tool {
	out := make([]model.Tool, 0, len(r))
	for _, t := range r {
		out = append(out, t.spec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// call runs one tool call and returns the text the model sees, capped, and
// whether it is an error. Every failure becomes an "error: ..." result.
func (r registry) call(ctx context.Context, env *track.Env, tc model.ToolCall) (string, bool) {
	text, err := r.dispatch(ctx, env, tc)
	if err != nil {
		text = "error: " + strings.ReplaceAll(err.Error(), env.Dir, ".")
	}
	return capText(text, ResultCap), err != nil
}

// dispatch finds the tool tc names, checks its arguments and runs it.
func (r registry) dispatch(ctx context.Context, env *track.Env, tc model.ToolCall) (string, error) {
	t, ok := r[tc.Name]
	if !ok {
		names := make([]string, 0, len(r))
		for n := range r {
			names = append(names, n)
		}
		sort.Strings(names)
		return "", fmt.Errorf("unknown tool %q; the tools are %s", tc.Name, strings.Join(names, ", "))
	}
	args, err := parseArgs(tc.Arguments, t.params)
	if err != nil {
		return "", fmt.Errorf("%s: %w", tc.Name, err)
	}
	return t.run(ctx, env, args)
}

// parseArgs decodes a JSON object of string arguments and checks it holds
// exactly the named ones.
func parseArgs(raw string, want []string) (map[string]string, error) {
	obj := map[string]json.RawMessage{}
	if strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &obj); err != nil {
			return nil, fmt.Errorf("arguments are not a valid JSON object (%v): %.200q", err, raw)
		}
	}
	args := map[string]string{}
	for _, name := range want {
		v, ok := obj[name]
		if !ok {
			return nil, fmt.Errorf("missing argument %q (expected: %s)", name, argList(want))
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("argument %q must be a string", name)
		}
		args[name] = s
	}
	var extra []string
	for name := range obj {
		if _, ok := args[name]; !ok {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("unexpected argument %q (expected: %s)", extra[0], argList(want))
	}
	return args, nil
}

// argList words the expected argument names for an error.
func argList(names []string) string {
	if len(names) == 0 {
		return "no arguments"
	}
	return strings.Join(names, ", ")
}

// capText cuts text to at most limit bytes (on a character boundary) and
// says how much was cut.
func capText(text string, limit int) string {
	if len(text) <= limit {
		return text
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n[output cut: %d of %d bytes not shown]", text[:cut], len(text)-cut, len(text))
}

// listFiles is the list_files tool: every file under path, __pycache__ left out.
func listFiles(_ context.Context, env *track.Env, a map[string]string) (string, error) {
	if strings.TrimSpace(a["path"]) == "" {
		a["path"] = "." // an empty directory argument means the whole workspace
	}
	dir, err := Confine(env.Dir, a["path"])
	if err != nil {
		return "", err
	}
	var lines []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			lines = append(lines, relName(env.Dir, p))
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("no such directory: %s", a["path"])
	}
	if err != nil {
		return "", err
	}
	if len(lines) == 0 {
		return "(no files)", nil
	}
	return strings.Join(lines, "\n"), nil
}

// readFile is the read_file tool.
func readFile(_ context.Context, env *track.Env, a map[string]string) (string, error) {
	p, err := Confine(env.Dir, a["path"])
	if err != nil {
		return "", err
	}
	b, err := readCapped(p, a["path"])
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readCapped reads the file at p (shown to the model as rel), refusing one
// larger than MaxFileBytes.
func readCapped(p, rel string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fileError(rel, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fileError(rel, err)
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes, the most the tools read", rel, MaxFileBytes)
	}
	return b, nil
}

// checkSize refuses content larger than MaxFileBytes.
func checkSize(rel string, n int) error {
	if n > MaxFileBytes {
		return fmt.Errorf("the new content of %s is %d bytes; the most a file may hold is %d", rel, n, MaxFileBytes)
	}
	return nil
}

// writeFile is the write_file tool; it creates missing folders.
func writeFile(_ context.Context, env *track.Env, a map[string]string) (string, error) {
	p, err := Confine(env.Dir, a["path"])
	if err != nil {
		return "", err
	}
	if err := checkSize(a["path"], len(a["content"])); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fileError(a["path"], err)
	}
	if err := os.WriteFile(p, []byte(a["content"]), 0o644); err != nil {
		return "", fileError(a["path"], err)
	}
	env.Rec.Record(record.Event{Kind: record.EventWrite, Path: relName(env.Dir, p), Bytes: len(a["content"])})
	return fmt.Sprintf("wrote %d bytes to %s", len(a["content"]), relName(env.Dir, p)), nil
}

// editFile is the edit_file tool: old must occur exactly once.
func editFile(_ context.Context, env *track.Env, a map[string]string) (string, error) {
	p, err := Confine(env.Dir, a["path"])
	if err != nil {
		return "", err
	}
	if a["old"] == "" {
		return "", errors.New("old text is empty: give the exact text to replace")
	}
	b, err := readCapped(p, a["path"])
	if err != nil {
		return "", err
	}
	text := string(b)
	if n := strings.Count(text, a["old"]); n != 1 {
		return "", fmt.Errorf("old text found %d times in %s; it must match exactly once", n, relName(env.Dir, p))
	}
	text = strings.Replace(text, a["old"], a["new"], 1)
	if err := checkSize(a["path"], len(text)); err != nil {
		return "", err
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		return "", fileError(a["path"], err)
	}
	env.Rec.Record(record.Event{Kind: record.EventWrite, Path: relName(env.Dir, p), Bytes: len(text)})
	return fmt.Sprintf("edited %s: replaced %d bytes with %d bytes", relName(env.Dir, p), len(a["old"]), len(a["new"])), nil
}

// runTests is the run_tests tool: the normalised output and a summary line.
func runTests(ctx context.Context, env *track.Env, _ map[string]string) (string, error) {
	res, err := env.RunTests(ctx)
	if err != nil {
		return "", fmt.Errorf("could not run the tests: %w", err)
	}
	summary := fmt.Sprintf("summary: %d of %d tests passed, exit code %d", res.Passed, res.Total, res.ExitCode)
	if res.TimedOut {
		summary += ", timed out"
	}
	return res.Normalized + "\n" + summary, nil
}

// fileError words a file-system error without the workspace's absolute path.
func fileError(rel string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no such file: %s", rel)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("permission denied: %s", rel)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", rel, pe.Err)
	}
	return err
}
