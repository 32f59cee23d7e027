package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
	"bench/sandbox"
	"bench/tasks"
)

// needSandbox skips the test, printing why, when this kernel cannot give
// a test run every named layer ("fs", "net", "pid"); it fails it instead
// under BENCH_FEATURES_REQUIRED=1 (fixture.Lacks).
func needSandbox(t *testing.T, layers ...string) {
	t.Helper()
	for _, c := range sandbox.Probe() {
		for _, l := range layers {
			if c.Layer == l && !c.OK {
				fixture.Lacks(t, fmt.Sprintf("this kernel lacks the sandbox's %s layer: %s (%s)", l, c.Detail, c.Fix))
			}
		}
	}
}

// leapTask returns the embedded leap_year task.
func leapTask(t *testing.T) tasks.Task {
	t.Helper()
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range all {
		if task.Name == "leap_year" {
			return task
		}
	}
	t.Fatal("no leap_year task")
	return tasks.Task{}
}

// A script is what a fake model does in one episode: the agent's tool
// calls in order, then "Done."; the workflow's reply text.
type script struct {
	calls    []model.ToolCall
	workflow string
}

// scriptedModel answers each request from the script of its episode's
// seed (Ollama's options.seed): the agent gets its k-th tool call once k
// tool results are in the conversation, then a final text; a request
// without tools (the workflow) gets the workflow reply.
func scriptedModel(bySeed map[int]script) modeltest.Reply {
	return modeltest.Always(modeltest.Func(func(r modeltest.Request) modeltest.Reply {
		seed, _ := r.Options["seed"].(float64)
		s := bySeed[int(seed)]
		if len(r.Tools) == 0 {
			return modeltest.Text(s.workflow).WithUsage(400, 200)
		}
		k := 0
		for _, m := range r.Messages {
			if m.Role == model.RoleTool {
				k++
			}
		}
		if k < len(s.calls) {
			return modeltest.Calls(s.calls[k]).WithUsage(500, 50)
		}
		return modeltest.Text("Done.").WithUsage(600, 5)
	}))
}

// call is a tool call with the given string arguments.
func call(name string, args ...string) model.ToolCall {
	obj := map[string]string{}
	for i := 0; i+1 < len(args); i += 2 {
		obj[args[i]] = args[i+1]
	}
	b, _ := json.Marshal(obj)
	return modeltest.Call(name, string(b))
}

func writeFile(path, content string) model.ToolCall {
	return call("write_file", "path", path, "content", content)
}
func readFile(path string) model.ToolCall { return call("read_file", "path", path) }
func runTests() model.ToolCall            { return call("run_tests") }

// toolResults returns, for each seed, the tool results of its agent
// episode in order, from the longest conversation the server saw.
func toolResults(srv *modeltest.Server) map[int][]string {
	out := map[int][]string{}
	for _, r := range srv.Requests() {
		seed, _ := r.Options["seed"].(float64)
		var res []string
		for _, m := range r.Messages {
			if m.Role == model.RoleTool {
				res = append(res, m.Content)
			}
		}
		if len(res) >= len(out[int(seed)]) {
			out[int(seed)] = res
		}
	}
	return out
}

// benchRunIn runs `bench run` in this process on leap_year against srv
// and returns the results folder and what it holds.
func benchRunIn(t *testing.T, srv *modeltest.Server, args ...string) (string, record.Data) {
	t.Helper()
	return benchRunTask(t, srv, "leap_year", args...)
}

// benchRunTask is benchRunIn on the given tasks.
func benchRunTask(t *testing.T, srv *modeltest.Server, tasks string, args ...string) (string, record.Data) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	all := append([]string{"run", "--host", srv.URL, "--tasks", tasks, "--out", dir}, args...)
	stdout, stderr, err := runCLI(t, all...)
	if err != nil {
		t.Fatalf("bench %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(all, " "), err, stdout, stderr)
	}
	return dir, readRun(t, dir)
}

// benchRunOut runs `bench run` as a process of its own into dir (made by
// the caller) and waits for it to exit.
func benchRunOut(t *testing.T, srv *modeltest.Server, dir string, args ...string) record.Data {
	t.Helper()
	return benchRunEnv(t, srv, dir, nil, "leap_year", args...)
}

// benchRunEnv is benchRunOut on the given tasks, with env added to the
// process's environment.
func benchRunEnv(t *testing.T, srv *modeltest.Server, dir string, env []string, tasks string, args ...string) record.Data {
	t.Helper()
	all := append([]string{"run", "--host", srv.URL, "--tasks", tasks, "--out", dir}, args...)
	cmd, out := startBenchEnv(t, env, all...)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("bench %s: %v\n%s", strings.Join(all, " "), err, out)
		}
	case <-time.After(4 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("bench %s did not finish in 4 minutes:\n%s", strings.Join(all, " "), out)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readRun reads a results folder that must have no warnings.
func readRun(t *testing.T, dir string) record.Data {
	t.Helper()
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Warnings) > 0 {
		t.Errorf("%s: warnings %q", dir, data.Warnings)
	}
	return data
}

// episode returns the one episode of track and seed.
func episode(t *testing.T, data record.Data, track string, seed int) record.Episode {
	t.Helper()
	for _, ep := range data.Episodes {
		if ep.Track == track && ep.Seed == seed {
			return ep
		}
	}
	t.Fatalf("no %s episode with seed %d among %d", track, seed, len(data.Episodes))
	return record.Episode{}
}

// episodeWorkspace returns the workspace an episode's trajectory names as
// kept (--keep-workspaces).
func episodeWorkspace(t *testing.T, data record.Data, ep record.Episode) string {
	t.Helper()
	evs, _, err := record.ReadTrajectory(data.TrajectoryPath(ep))
	if err != nil || len(evs) == 0 || evs[len(evs)-1].Kind != record.EventEnd || evs[len(evs)-1].Path == "" {
		t.Fatalf("the trajectory of %s names no kept workspace (%v)", ep.Key(), err)
	}
	ws := evs[len(evs)-1].Path
	t.Cleanup(func() { os.RemoveAll(ws) })
	return ws
}

// processesWith returns the pids of the processes whose command line holds
// token.
func processesWith(token string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), token) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// survivors waits up to a second for the processes holding token to go
// and returns (and kills) those that are still there.
func survivors(token string) []int {
	deadline := time.Now().Add(time.Second)
	for {
		pids := processesWith(token)
		if len(pids) == 0 || time.Now().After(deadline) {
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
			return pids
		}
		time.Sleep(20 * time.Millisecond)
	}
}
