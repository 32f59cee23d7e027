package loop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"bench/trackfacts"

	"bench/model"
	"bench/track"
	"bench/workspace"
)

// ResultCap is the most bytes of a tool result the model is shown.
const ResultCap = 16 << 10

// session is what a tool works on: the episode, its open workspace and
// its conversation.
type session struct {
	env  *track.Env
	ws   *workspace.Root
	conv *track.Conversation
}

// toolFunc runs one tool with its checked arguments.
type toolFunc func(ctx context.Context, s *session, args map[string]string) (string, error)

// tool is one tool the agent may call.
type tool struct {
	spec   model.Tool
	params []Param // its string arguments, in schema order
	run    toolFunc
}

// registry holds the tools by name.
type registry map[string]tool

// newRegistry returns the agent's five tools and the added ones.
func newRegistry(added []Tool) registry {
	r := registry{}
	r.add(trackfacts.ListFiles, "List the files under a directory of the workspace, recursively, one relative path per line. Use \".\" for the whole workspace.",
		[]Param{{Name: "path", Description: "directory relative to the workspace root"}}, listFiles)
	r.add(trackfacts.ReadFile, "Return the full text of a file in the workspace.",
		[]Param{{Name: "path", Description: "file path relative to the workspace root"}}, readFile)
	r.add(trackfacts.WriteFile, "Create or replace a file in the workspace with the given content.",
		[]Param{{Name: "path", Description: "file path relative to the workspace root"}, {Name: "content", Description: "the complete new content of the file"}}, writeFile)
	r.add(trackfacts.EditFile, "Replace one exact piece of text in a file. The old text must occur exactly once in the file; include enough surrounding lines to make it unique.",
		[]Param{{Name: "path", Description: "file path relative to the workspace root"}, {Name: "old", Description: "the exact text to replace"}, {Name: "new", Description: "the text to put in its place"}}, editFile)
	r.add(trackfacts.RunTests, "Run the project's test command in the workspace and return its output with a summary line.",
		nil, runTests)
	for _, t := range added {
		if _, ok := r[t.Name]; ok {
			panic("loop: an added tool is named " + t.Name + " like one of the agent's own") // static data: a test builds every track's registry
		}
		r.add(t.Name, t.Description, t.Params, func(ctx context.Context, s *session, args map[string]string) (string, error) {
			return t.Run(ctx, Call{Args: args, Conv: s.conv})
		})
	}
	return r
}

// add registers a tool whose arguments are the strings params.
func (r registry) add(name, desc string, params []Param, run toolFunc) {
	props := map[string]any{}
	required := []string{}
	for _, p := range params {
		props[p.Name] = map[string]string{"type": "string", "description": p.Description}
		if !p.Optional {
			required = append(required, p.Name)
		}
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	if err != nil {
		panic(err) // static data; cannot fail
	}
	r[name] = tool{spec: model.Tool{Name: name, Description: desc, Parameters: schema}, params: params, run: run}
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
// whether it is an error. Every failure becomes an "error: ..." result; one
// wrapped by Stop is also returned as stop, to end the episode.
func (r registry) call(ctx context.Context, s *session, tc model.ToolCall) (text string, isErr bool, stop error) {
	text, err := r.dispatch(ctx, s, tc)
	if err != nil {
		text = "error: " + strings.ReplaceAll(err.Error(), s.env.Dir, ".")
		var st stopError
		if errors.As(err, &st) {
			stop = st.err
		}
	}
	return capText(text, ResultCap), err != nil, stop
}

// dispatch finds the tool tc names, checks its arguments and the episode's
// context, and runs it.
func (r registry) dispatch(ctx context.Context, s *session, tc model.ToolCall) (string, error) {
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
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s not run: %w", tc.Name, err)
	}
	return t.run(ctx, s, args)
}

// parseArgs decodes a JSON object of string arguments and checks it holds
// every required one of want and nothing else; an optional one left out
// is "".
func parseArgs(raw string, want []Param) (map[string]string, error) {
	obj := map[string]json.RawMessage{}
	if strings.TrimSpace(raw) != "" {
		if err := json.Unmarshal([]byte(raw), &obj); err != nil {
			return nil, fmt.Errorf("arguments are not a valid JSON object (%v): %.200q", err, raw)
		}
	}
	args := map[string]string{}
	for _, p := range want {
		v, ok := obj[p.Name]
		if !ok {
			if p.Optional {
				args[p.Name] = ""
				continue
			}
			return nil, fmt.Errorf("missing argument %q (expected: %s)", p.Name, argList(want))
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("argument %q must be a string", p.Name)
		}
		args[p.Name] = s
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

// argList words the expected arguments for an error.
func argList(params []Param) string {
	if len(params) == 0 {
		return "no arguments"
	}
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
		if p.Optional {
			names[i] += " (optional)"
		}
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
