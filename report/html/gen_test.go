package html

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/record"
)

// genRun writes a made-up run folder of 10 tasks × {workflow, agent} × 25
// seeds × 2 repeats (1,000 episodes) with realistic trajectories: agent
// loops of 3 to 12 turns that list, read, edit and test, with kilobytes of
// tool output; workflows that send a source file and write the reply.
// Repeats of the same seed diverge in about half the agent episodes.
func genRun(tb testing.TB, dir string) []record.Data {
	tb.Helper()
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	run := record.Run{Format: 1, BenchVersion: "synthetic", ID: "generated-1000", Backend: "ollama", Model: "qwen3:8b",
		ModelDigest: "sha256:0000", Tracks: []string{"workflow", "agent"}, Started: start,
		RunSettings: record.RunSettings{Temperature: 0.7, NumCtx: 8192, Posture: "coding", MaxTurns: 12, Tries: 1}}
	for s := 1; s <= 25; s++ {
		run.Seeds = append(run.Seeds, s, s)
	}
	for task := range 10 {
		run.Tasks = append(run.Tasks, record.TaskRef{Name: fmt.Sprintf("task_%02d", task)})
	}
	writeJSON(tb, filepath.Join(dir, record.RunFile), run)
	f, err := os.Create(filepath.Join(dir, record.EpisodesFile))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	eps := bufio.NewWriter(f)
	for task := range 10 {
		name := fmt.Sprintf("task_%02d", task)
		for _, track := range []string{"workflow", "agent"} {
			for seed := 1; seed <= 25; seed++ {
				for repeat := range 2 {
					rng := rand.New(rand.NewPCG(uint64(task*1000+seed), uint64(len(track))))
					if repeat == 1 && seed%2 == 0 {
						rng = rand.New(rand.NewPCG(uint64(task*1000+seed), uint64(len(track)+repeat)))
					}
					events, ep := genEpisode(rng, track, start)
					ep.Run, ep.Task, ep.Track, ep.Seed, ep.Repeat = run.ID, name, track, seed, repeat
					writeTrajectory(tb, filepath.Join(dir, record.TrajectoriesDir, name, track, record.TrajectoryName(seed, repeat)+".jsonl"), events)
					line, _ := json.Marshal(ep)
					eps.Write(append(line, '\n'))
				}
			}
		}
	}
	if err := eps.Flush(); err != nil {
		tb.Fatal(err)
	}
	data, err := record.Read(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return []record.Data{data}
}

// lorem is filler text of n bytes in lines of code-like words.
func lorem(rng *rand.Rand, n int) string {
	words := []string{"def", "return", "value", "self", "parse", "(x)", "if", "not", "raise", "ValueError", "for", "in", "range", "=", "+ 1", "# note"}
	var b strings.Builder
	for b.Len() < n {
		for range 8 {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// genEpisode makes one episode's events and its record.
func genEpisode(rng *rand.Rand, track string, t time.Time) ([]record.Event, record.Episode) {
	var evs []record.Event
	at := func(ms int) time.Time { t = t.Add(time.Duration(ms) * time.Millisecond); return t }
	ep := record.Episode{Format: 1, ExitReason: record.ExitDone, TestsTotal: 7}
	add := func(ev record.Event) { ev.Format, ev.Seq = 1, len(evs); evs = append(evs, ev) }
	testOut := func() (int, string) { p := rng.IntN(8); return p, lorem(rng, 2000+rng.IntN(3000)) }
	if track == "workflow" {
		p, out := testOut()
		add(record.Event{Kind: record.EventTestRun, Time: at(200), TestsPassed: p, TestsTotal: 7, Output: out})
		add(record.Event{Kind: record.EventRequest, Turn: 1, Time: at(2), EstTokens: 900, Messages: []record.Message{
			{Role: "system", Content: lorem(rng, 600)}, {Role: "user", Content: lorem(rng, 2500)}}})
		reply := "FILE: a.py\n```python\n" + lorem(rng, 900) + "```"
		add(record.Event{Kind: record.EventResponse, Turn: 1, Time: at(3000 + rng.IntN(4000)), Reply: &record.Message{Role: "assistant", Content: reply},
			PromptTokens: 1000 + rng.IntN(200), CompletionTokens: 250 + rng.IntN(100), DurationMS: 3000})
		add(record.Event{Kind: record.EventWrite, Turn: 1, Time: at(1), Path: "a.py", Bytes: 900})
		p, out = testOut()
		add(record.Event{Kind: record.EventTestRun, Turn: 1, Time: at(200), TestsPassed: p, TestsTotal: 7, Output: out})
		ep.Turns, ep.ModelCalls, ep.TestsPassed = 1, 1, p
	} else {
		turns := 3 + rng.IntN(10)
		add(record.Event{Kind: record.EventRequest, Turn: 1, Time: at(1), Tools: []string{"edit_file", "list_files", "read_file", "run_tests"},
			Messages: []record.Message{{Role: "system", Content: lorem(rng, 800)}, {Role: "user", Content: lorem(rng, 300)}}})
		prompt := 800
		for turn := 1; turn <= turns; turn++ {
			tool := []string{"list_files", "read_file", "edit_file", "run_tests"}[rng.IntN(4)]
			if turn == turns {
				add(record.Event{Kind: record.EventResponse, Turn: turn, Time: at(1500), Reply: &record.Message{Role: "assistant", Content: lorem(rng, 200)},
					PromptTokens: prompt, CompletionTokens: 50})
				break
			}
			args := `{"path":"a.py"}`
			if tool == "edit_file" {
				args = fmt.Sprintf(`{"path":"a.py","old":%q,"new":%q}`, lorem(rng, 120), lorem(rng, 160))
			}
			add(record.Event{Kind: record.EventResponse, Turn: turn, Time: at(800 + rng.IntN(2000)), PromptTokens: prompt, CompletionTokens: 20 + rng.IntN(80),
				Reply: &record.Message{Role: "assistant", ToolCalls: []record.ToolCall{{Name: tool, Arguments: args}}}})
			add(record.Event{Kind: record.EventToolCall, Turn: turn, Time: at(1), Tool: tool, Args: args})
			result := lorem(rng, 300+rng.IntN(2500))
			switch tool {
			case "run_tests":
				p, out := testOut()
				add(record.Event{Kind: record.EventTestRun, Turn: turn, Time: at(250), TestsPassed: p, TestsTotal: 7, Output: out})
				result = out
				ep.TestsPassed = p
			case "edit_file":
				add(record.Event{Kind: record.EventWrite, Turn: turn, Time: at(1), Path: "a.py", Bytes: 900})
				result = "edited a.py"
			}
			add(record.Event{Kind: record.EventToolResult, Turn: turn, Time: at(1), Tool: tool, Result: result})
			add(record.Event{Kind: record.EventRequest, Turn: turn + 1, Time: at(1), Tools: []string{"edit_file", "list_files", "read_file", "run_tests"},
				Messages: []record.Message{{Role: "tool", ToolName: tool, Content: result}}})
			ep.ToolCalls = append(ep.ToolCalls, tool)
			prompt += len(result)/4 + 40
		}
		ep.Turns, ep.ModelCalls = turns, turns
	}
	add(record.Event{Kind: record.EventEnd, Time: at(5), Exit: record.ExitDone})
	ep.Passed = ep.TestsPassed == 7 || rng.IntN(3) == 0
	if ep.Passed {
		ep.TestsPassed = 7
	}
	for _, ev := range evs {
		if ev.Kind == record.EventResponse {
			ep.PromptTokens += ev.PromptTokens
			ep.CompletionTokens += ev.CompletionTokens
			b, _ := json.Marshal(ev.Reply)
			ep.Steps = append(ep.Steps, fmt.Sprintf("%08x", len(b)*31+len(ep.Steps)))
		}
	}
	ep.EstPromptTokens, ep.EstCompletionTokens = ep.PromptTokens*9/10, ep.CompletionTokens
	return evs, ep
}

// writeJSON writes v as indented JSON to path.
func writeJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// writeTrajectory writes events as a trajectory file, creating its folder.
func writeTrajectory(tb testing.TB, path string, events []record.Event) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for _, ev := range events {
		line, err := json.Marshal(ev)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
}
