package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/record"
)

// TestTimeoutMidReply: a reply still streaming when --timeout runs out is a
// timeout that names the flag to raise, tried once more at most, never a
// dropped connection retried three times.
// It runs alone (not in parallel): a call queued behind another test's
// would time out before its reply starts, which is not the case under test.
// When the server did not start the reply within the second (a loaded
// machine), it tries once more with a longer limit.
func TestTimeoutMidReply(t *testing.T) {
	needFull(t)
	// The same prompt once first, so the server has it cached and starts
	// the reply quickly.
	warm := job{model: modelPlain, tracks: "workflow", seeds: "1", replyCap: 1}
	warm.run(t)
	var ep record.Episode
	for _, limit := range []time.Duration{time.Second, 3 * time.Second} {
		j := job{model: modelPlain, tracks: "workflow", seeds: "1", replyCap: 4000, timeout: limit}
		j.run(t)
		ep = episode(t, j.out, "workflow", "seed-1")
		streamed := lastChatStatus(t) == "200"
		t.Logf("--timeout %s, reply started: %v; episode: exit %s, kind %q, retries %d: %s", limit, streamed, ep.ExitReason, ep.ErrorKind, ep.Retries, ep.Error)
		if streamed {
			break
		}
	}
	if ep.ExitReason != record.ExitError || !strings.Contains(ep.Error, "timed out") || !strings.Contains(ep.Error, flagTimeout) {
		t.Errorf("want the episode to say the call timed out and to raise %s; got exit %s: %s", flagTimeout, ep.ExitReason, ep.Error)
	}
	// A call that timed out is tried once more, never as a dropped connection.
	if ep.Retries > 1 || strings.Contains(ep.Error, "dropped") {
		t.Errorf("the timed-out call was retried %d times, or named a dropped connection: %s", ep.Retries, ep.Error)
	}
	if ep.ErrorKind != record.ErrorCallTimeout {
		t.Errorf("error kind %q, want %q", ep.ErrorKind, record.ErrorCallTimeout)
	}
}

// lastChatStatus is the HTTP status the server logged for its last
// /api/chat call: 200 when it had started the reply before the client
// went, 499 when the client went first.
func lastChatStatus(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(suite.server.Log)
	if err != nil {
		t.Fatal(err)
	}
	status := ""
	for line := range strings.SplitSeq(string(data), "\n") {
		if f := strings.Split(line, "|"); strings.HasPrefix(line, "[GIN]") && len(f) >= 5 && strings.Contains(f[4], `"/api/chat"`) {
			status = strings.TrimSpace(f[1])
		}
	}
	return status
}

// TestThinkRefused: --think on a model whose /api/show lacks "thinking" is
// refused before anything starts: non-zero exit, no results folder.
func TestThinkRefused(t *testing.T) {
	needFull(t)
	t.Parallel()
	j := job{model: modelPlain, tracks: "workflow", seeds: "1", replyCap: 1, think: true}
	r := bench(t, j.args(t)...)
	if r.code == 0 || !strings.Contains(r.stderr, "think") {
		t.Errorf("want a refusal that names thinking and a non-zero exit:\n%s", r)
	}
	if _, err := os.Stat(j.out); !os.IsNotExist(err) {
		t.Errorf("the refused run created %s (%v)", j.out, err)
	}
}

// TestUnknownModel: a model the server does not have gets bench's own
// message, on both backends, and nothing is created.
func TestUnknownModel(t *testing.T) {
	needFull(t)
	t.Parallel()
	for _, backend := range []string{"ollama", "openai"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			j := job{backend: backend, model: "nosuch", tracks: "workflow", seeds: "1", replyCap: 1}
			r := bench(t, j.args(t)...)
			if r.code == 0 || !strings.Contains(r.stdout+r.stderr, `model "nosuch" not found on `+hostOf(j)) {
				t.Errorf("want bench's message that nosuch is not on the server:\n%s", r)
			}
			noRawJSON(t, r.stdout+r.stderr)
			if _, err := os.Stat(j.out); !os.IsNotExist(err) {
				t.Errorf("the refused run created %s (%v)", j.out, err)
			}
		})
	}
}

// hostOf is the server URL a job talks to.
func hostOf(j job) string {
	if j.backend == "openai" {
		return suite.server.URL + "/v1"
	}
	return suite.server.URL
}

// TestRefusedRequest: a request the server refuses with an error body (the
// OpenAI side asked for tools a model cannot use) reads as bench's own
// message, either before the run or on the episode.
func TestRefusedRequest(t *testing.T) {
	needFull(t)
	t.Parallel()
	j := job{backend: "openai", model: modelPlain + ":latest", tracks: "agent", seeds: "1", replyCap: 1, maxTurns: 1}
	r := bench(t, j.args(t)...)
	msg := r.stderr
	if r.code == 0 {
		ep := episode(t, j.out, "agent", "seed-1")
		msg = ep.Error
		if ep.ExitReason != record.ExitError {
			t.Errorf("want the episode ended by the refusal, got exit %s", ep.ExitReason)
		}
	}
	if !strings.Contains(msg, "does not support tool") {
		t.Errorf("want bench's message that the model cannot use tools, got %q\n%s", msg, r)
	}
	noRawJSON(t, msg)
}

// noRawJSON fails t when text holds a server's error body as it came.
func noRawJSON(t *testing.T, text string) {
	t.Helper()
	for _, raw := range []string{`{"error"`, `"message":`, `"type":`, `\"`} {
		if strings.Contains(text, raw) {
			t.Errorf("raw JSON (%s) in bench's message:\n%s", raw, text)
		}
	}
}

// TestOpenAIBackend: the OpenAI backend against Ollama's /v1 runs the
// workflow with a name without a tag, and its twins are identical too.
func TestOpenAIBackend(t *testing.T) {
	needFull(t)
	t.Parallel()
	j := job{backend: "openai", model: modelPlain, tracks: "workflow", seeds: "1,1", replyCap: workflowReplyCap,
		out: filepath.Join(t.TempDir(), "openai")}
	j.run(t)
	ep := episode(t, j.out, "workflow", "seed-1")
	if ep.PromptTokens == 0 || ep.CompletionTokens != workflowReplyCap {
		t.Errorf("want the server's token counts, got %d prompt, %d completion", ep.PromptTokens, ep.CompletionTokens)
	}
	checkTwins(t, j.out, "workflow", false)
}
