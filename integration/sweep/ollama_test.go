package sweep

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/integration"
)

// TestSlurmOllamaPerTask runs the Slurm script's one-Ollama-per-node option
// (BENCH_OLLAMA_SERVE=1) for real: each of two array tasks starts the real
// Ollama server of ../shared/ollama on a port of its own, with the models
// from a folder the tasks share, runs its shard against it, not against
// OLLAMA_HOST, and the server ends with the task.
func TestSlurmOllamaPerTask(t *testing.T) {
	c := needSlurm(t)
	start, err := integration.FindStart(suite.root)
	if err != nil {
		unavailable(t, integration.EnvRequired, "no real Ollama: "+err.Error())
	}
	base := t.TempDir()
	shared := filepath.Join(base, "ollama")
	srv, err := integration.Start(start, shared, os.Getpid()) // unpacks the server and creates the models
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	sweep := filepath.Join(base, "sweep")
	env := c.env("BENCH="+bench(t), "BENCH_OLLAMA_SERVE=1", "OLLAMA_MODELS="+filepath.Join(shared, "models"),
		"PATH="+shared+":"+os.Getenv("PATH"), "HOME="+filepath.Join(shared, "home"), "OLLAMA_HOST=http://127.0.0.1:1")
	array := c.run(t, base, env, "sbatch", "--parsable", "--array=0-1", sbatchScript(), sweep,
		"--model", "tiny", "--tracks", "workflow", "--tasks", "leap_year", "--seeds", "1,2", "--max-tokens", "16")
	report := reportJob(t, sweep, array)
	final := c.wait(t, 5*time.Minute, array, report)
	for _, j := range append(final[array], final[report]...) {
		if j["JobState"] != "COMPLETED" {
			t.Fatalf("job %s ended %s:\n%s", j["JobId"], j["JobState"], logs(base))
		}
	}
	seen := map[string]int{}
	for k, dir := range shardDirs(t, sweep, 2) {
		eps := lines(t, dir)
		if len(eps) != 1 || eps[0].Error != "" || eps[0].CompletionTokens == 0 {
			t.Errorf("shard-%d: %+v, want one episode that the model answered", k, eps)
		}
		host := runHost(t, dir)
		if !strings.HasPrefix(host, "http://127.0.0.1:") || host == "http://127.0.0.1:1" {
			t.Errorf("shard-%d ran against %s, not a server of its own", k, host)
		}
		seen[host]++
		if log := readFile(t, filepath.Join(sweep, fmt.Sprintf("ollama-%d.log", k))); !strings.Contains(log, "Listening on") {
			t.Errorf("shard-%d's server log:\n%s", k, log)
		}
	}
	if len(seen) != 2 {
		t.Errorf("the shards' servers: %v, want one each", seen)
	}
	for host := range seen {
		waitFor(t, func() bool {
			resp, err := http.Get(host + "/api/version")
			if err == nil {
				resp.Body.Close()
			}
			return err != nil
		})
	}
}

// runHost is the server the run in dir recorded.
func runHost(t *testing.T, dir string) string {
	t.Helper()
	text := readFile(t, filepath.Join(dir, "run.json"))
	_, rest, ok := strings.Cut(text, `"host": "`)
	host, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		t.Fatalf("%s/run.json names no host", dir)
	}
	return host
}
