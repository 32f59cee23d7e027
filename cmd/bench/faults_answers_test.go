package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model"
	"bench/model/modeltest"
	"bench/record"
)

// faultsBackends are the two protocols every server fault is tried on.
var faultsBackends = []string{model.BackendOllama, model.BackendOpenAI}

// faultsServer starts the fake server of backend with script.
func faultsServer(t *testing.T, backend string, script ...modeltest.Reply) *modeltest.Server {
	t.Helper()
	if backend == model.BackendOpenAI {
		return modeltest.NewOpenAI(t, script...)
	}
	return modeltest.NewOllama(t, script...)
}

// faultsRun runs bench run on leap_year's workflow against srv with the
// given seeds and extra flags, and reads back what it recorded.
func faultsRun(t *testing.T, srv *modeltest.Server, dir, seeds string, extra ...string) (stderr string, data record.Data, err error) {
	t.Helper()
	return faultsRunTrack(t, "workflow", srv, dir, seeds, extra...)
}

// faultsAgentRun is faultsRun on the agent track. A fault met on the
// first call costs it no test run before grading, where the workflow runs
// the tests first to show the model their failures; the client and the
// runner meet a server's answer alike on either track (runner's
// TestEpisodeLostToADeadServer and TestEpisodeCountsRetries run the real
// workflow).
func faultsAgentRun(t *testing.T, srv *modeltest.Server, dir, seeds string, extra ...string) (stderr string, data record.Data, err error) {
	t.Helper()
	return faultsRunTrack(t, "agent", srv, dir, seeds, extra...)
}

// faultsRunTrack runs bench run on leap_year's track against srv with the
// given seeds and extra flags, and reads back what it recorded.
func faultsRunTrack(t *testing.T, track string, srv *modeltest.Server, dir, seeds string, extra ...string) (stderr string, data record.Data, err error) {
	t.Helper()
	args := []string{"run", "--backend", srv.Config().Backend, "--host", srv.URL, "--tracks", track, "--tasks", "leap_year",
		"--seeds", seeds, "--parallel", "1", "--out", dir}
	_, stderr, err = runCLI(t, append(args, extra...)...)
	data, rerr := record.Read(dir)
	if rerr != nil {
		t.Fatalf("reading %s after the run (err %v):\n%s\n%v", dir, err, stderr, rerr)
	}
	return stderr, data, err
}

// faultsResume resumes dir against a healthy fake of backend and checks
// that every episode of the plan then stands passed.
func faultsResume(t *testing.T, backend, dir string, want int) {
	t.Helper()
	healthy := faultsServer(t, backend, modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
	if _, stderr, err := runCLI(t, "run", "--resume", dir, "--host", healthy.URL); err != nil {
		t.Fatalf("resume against a healthy server: %v\n%s", err, stderr)
	}
	data, err := record.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	passed := 0
	for _, ep := range data.Episodes {
		if ep.Passed {
			passed++
		}
	}
	if passed != want {
		t.Fatalf("after resume %d of the episodes stand passed, want %d: %+v", passed, want, data.Episodes)
	}
}

// TestFaultsLostAnswersAreRetriedThenLost: 408, 429 and 5xx are the
// server's, not the model's: retried, then the episode is lost (counted in
// no rate) and --resume against a healthy server redoes it.
func TestFaultsLostAnswersAreRetriedThenLost(t *testing.T) {
	fixture.FullOnly(t, "model's TestAnswersOfEveryStatus (each answer, both protocols), runner's TestEpisodeLostToADeadServer and TestEpisodeCountsRetries (lost after its retries, in a real workflow episode) and TestPendingRedoesLostAndInterrupted (--resume redoes it)")
	t.Parallel()
	cases := []struct {
		status   int
		kind     record.ErrorKind
		attempts int
		backend  string
	}{
		// Every answer of the model clients' table is tested there
		// (model.TestAnswersOfEveryStatus); here one of each kind of
		// loss goes through bench run and --resume, one on each protocol.
		{408, record.ErrorCallTimeout, 4, model.BackendOpenAI},
		{503, record.ErrorServer, 4, model.BackendOllama},
	}
	for _, c := range cases {
		backend := c.backend
		t.Run(fmt.Sprintf("%s/%d", backend, c.status), func(t *testing.T) {
			t.Parallel()
			// Retry-After: 0 lets the retries come at once, as the server asks.
			srv := faultsServer(t, backend, modeltest.Always(modeltest.Status(c.status).WithHeader("Retry-After", "0")))
			dir := filepath.Join(t.TempDir(), "run")
			stderr, data, _ := faultsAgentRun(t, srv, dir, "1")
			if len(data.Episodes) != 1 {
				t.Fatalf("%d episodes, want 1:\n%s", len(data.Episodes), stderr)
			}
			ep := data.Episodes[0]
			if !ep.Lost() || ep.ErrorKind != c.kind || ep.Passed {
				t.Fatalf("HTTP %d: exit %s, kind %q, lost %v; want lost as %q (%s)", c.status, ep.ExitReason, ep.ErrorKind, ep.Lost(), c.kind, ep.Error)
			}
			if n := len(srv.Requests()); n != c.attempts {
				t.Errorf("HTTP %d: %d requests, want %d (retried)", c.status, n, c.attempts)
			}
			if !strings.Contains(ep.Error, fmt.Sprint(c.status)) {
				t.Errorf("the error does not name HTTP %d: %q", c.status, ep.Error)
			}
			faultsResume(t, backend, dir, 1)
		})
	}
}

// TestFaultsRetryAfterIsHonoured: a 429 saying Retry-After: 1 is retried
// no sooner than a second later, and the episode then passes.
func TestFaultsRetryAfterIsHonoured(t *testing.T) {
	fixture.FullOnly(t, "model's TestRetryAfterOverridesTheBackoff (Retry-After: 1 waited for, on both protocols) and runner's TestEpisodeCountsRetries (the retry counted, the episode passes)")
	t.Parallel()
	// Both protocols are model.TestRetryAfterOverridesTheBackoff's; here one goes through bench run.
	for _, backend := range []string{model.BackendOpenAI} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			srv := faultsServer(t, backend, modeltest.Status(429).WithHeader("Retry-After", "1"), modeltest.Always(modeltest.Func(testsupport.NewSolver(t).Reply)))
			stderr, data, err := faultsRun(t, srv, filepath.Join(t.TempDir(), "run"), "1")
			if err != nil || len(data.Episodes) != 1 || !data.Episodes[0].Passed || data.Episodes[0].Retries != 1 {
				t.Fatalf("err %v, episodes %+v; want one pass after one retry\n%s", err, data.Episodes, stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || reqs[1].Time.Sub(reqs[0].Time) < time.Second {
				t.Fatalf("%d requests; the retry came %v after the 429, want at least 1s", len(reqs), reqs[len(reqs)-1].Time.Sub(reqs[0].Time))
			}
		})
	}
}

// TestFaultsConfigurationErrorsStopTheRun: 401, 403 and a model that is
// gone mid-run say that the setup is wrong: the run stops at once, before
// more episodes are spent, with a message that says what to fix; the
// episode that met it is lost, and --resume redoes it once fixed.
func TestFaultsConfigurationErrorsStopTheRun(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status   int
		msg      string
		want     []string // in the stop message
		backends []string
		resumeOn string // the backend whose run is then resumed
	}{
		// Every answer of the model clients' table is tested there
		// (model.TestAnswersOfEveryStatus); here each refusal whose stop
		// message differs goes through bench run. Each leaves its episode
		// lost, and --resume redoes a lost episode whatever lost it
		// (TestFaultsLostAnswersAreRetriedThenLost resumes on both
		// protocols), so one of them is resumed: two episodes graded.
		{401, "unauthorized", []string{"401", "credentials"}, []string{model.BackendOllama}, ""},
		{403, "forbidden", []string{"403", "credentials"}, []string{model.BackendOpenAI}, ""},
		{404, "model 'qwen3:8b' not found", []string{"not found"}, faultsBackends, model.BackendOllama},
	}
	for _, c := range fixture.Few(t, cases, 1, "model's TestAnswersOfEveryStatus (each refusal, both protocols), runner's TestRunPoolStopsAtOnceOnARefusal (the run stops at the refusal) and TestPendingRedoesLostAndInterrupted (--resume redoes the lost episode)") {
		for _, backend := range c.backends {
			t.Run(fmt.Sprintf("%s/%d", backend, c.status), func(t *testing.T) {
				t.Parallel()
				srv := faultsServer(t, backend, modeltest.Always(modeltest.StatusText(c.status, c.msg)))
				dir := filepath.Join(t.TempDir(), "run")
				stderr, data, err := faultsAgentRun(t, srv, dir, "1,2")
				if err == nil {
					t.Fatalf("HTTP %d: the run went on and exited 0:\n%s", c.status, stderr)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("HTTP %d: %d requests; a configuration error is neither retried nor met again", c.status, n)
				}
				if len(data.Episodes) != 1 || !data.Episodes[0].Lost() {
					t.Fatalf("HTTP %d: episodes %+v, want the one that met it, lost", c.status, data.Episodes)
				}
				for _, w := range append(c.want, "stopped", "bench run --resume "+dir) {
					if !strings.Contains(stderr, w) {
						t.Errorf("HTTP %d: stderr lacks %q:\n%s", c.status, w, stderr)
					}
				}
				fix := map[string]string{model.BackendOllama: "ollama pull qwen3:8b", model.BackendOpenAI: "--model"}[backend]
				if c.status == 404 && !strings.Contains(stderr, fix) {
					t.Errorf("a model gone from the server does not say %q:\n%s", fix, stderr)
				}
				if !strings.Contains(stderr, "0 of 2 episodes stand") {
					t.Errorf("the stop message miscounts what stands:\n%s", stderr)
				}
				if backend == c.resumeOn {
					faultsResume(t, backend, dir, 2)
				}
			})
		}
	}
}

// TestFaultsRequestTooLargeStands: a 413 says the conversation outgrew what
// the server accepts, a limit the episode ran into as it does into
// --max-turns: not retried, the episode stands (not passed), and --resume
// does not redo it.
func TestFaultsRequestTooLargeStands(t *testing.T) {
	t.Parallel()
	for _, backend := range fixture.Few(t, faultsBackends, 1, "model's TestAnswersOfEveryStatus (a 413 stands, both protocols)") {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			srv := faultsServer(t, backend, modeltest.Always(modeltest.StatusText(413, "request entity too large")))
			dir := filepath.Join(t.TempDir(), "run")
			stderr, data, _ := faultsAgentRun(t, srv, dir, "1")
			if len(data.Episodes) != 1 {
				t.Fatalf("%d episodes:\n%s", len(data.Episodes), stderr)
			}
			ep := data.Episodes[0]
			if ep.Lost() || ep.ErrorKind != record.ErrorRequestTooLarge || ep.Passed || len(srv.Requests()) != 1 {
				t.Fatalf("413: kind %q, lost %v, %d requests; want %q, standing, not retried", ep.ErrorKind, ep.Lost(), len(srv.Requests()), record.ErrorRequestTooLarge)
			}
			_, stderr, err := runCLI(t, "run", "--resume", dir, "--host", srv.URL)
			if err != nil || !strings.Contains(stderr, "1 already finished") {
				t.Fatalf("resume redid a 413: %v\n%s", err, stderr)
			}
		})
	}
}

// TestFaultsSlowLorisIsATimeout: a server that sends its headers and then
// its body a byte at a time is timed out by --timeout, lost as a timeout
// (not an unreadable reply), with the hint to raise --timeout.
func TestFaultsSlowLorisIsATimeout(t *testing.T) {
	fixture.FullOnly(t, "model's TestSlowLorisIsATimeout (both protocols, lost as a timeout naming --timeout)")
	t.Parallel()
	// Both protocols are model.TestSlowLorisIsATimeout's; here one goes through bench run.
	for _, backend := range []string{model.BackendOllama} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			srv := faultsServer(t, backend, modeltest.Always(modeltest.Text(strings.Repeat("slow ", 200)).Trickle(20*time.Millisecond)))
			dir := filepath.Join(t.TempDir(), "run")
			stderr, data, _ := faultsAgentRun(t, srv, dir, "1", "--timeout", "500ms")
			if len(data.Episodes) != 1 {
				t.Fatalf("%d episodes:\n%s", len(data.Episodes), stderr)
			}
			ep := data.Episodes[0]
			if !ep.Lost() || ep.ErrorKind != record.ErrorCallTimeout || !strings.Contains(ep.Error, "--timeout") {
				t.Fatalf("slow-loris: kind %q, lost %v, error %q; want a lost timeout naming --timeout", ep.ErrorKind, ep.Lost(), ep.Error)
			}
		})
	}
}
