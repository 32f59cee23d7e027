package integration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bench/record"
)

// faultsSecondServer starts a second real Ollama server beside the suite's,
// which creates the same models from the same gguf, as a second machine
// would; it is stopped at cleanup. It returns the server and its folder.
func faultsSecondServer(t *testing.T) (*Server, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ollama")
	srv, err := Start(suite.script, dir, os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return srv, dir
}

// faultsTagsDigest is the manifest digest the server at url lists for model.
func faultsTagsDigest(t *testing.T, url, model string) string {
	t.Helper()
	resp, err := http.Get(url + "/api/tags")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tags struct {
		Models []struct{ Name, Digest string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&tags); err != nil {
		t.Fatal(err)
	}
	for _, m := range tags.Models {
		if m.Name == model+":latest" {
			return m.Digest
		}
	}
	t.Fatalf("%s lists no %s", url, model)
	return ""
}

// faultsFileDigest is "sha256:<hex>" of a file.
func faultsFileDigest(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// TestFaultsTwoRealServersOneModel: two real servers that each created
// tiny from the same gguf hold manifests that differ, yet the same
// weights: doctor says ready and run runs on both, recording the digest of
// the gguf itself. Re-created on one of them with another template, the
// model is refused by both alike.
func TestFaultsTwoRealServersOneModel(t *testing.T) {
	needFull(t)
	second, dir := faultsSecondServer(t)
	a, b := suite.server.URL, second.URL
	if faultsTagsDigest(t, a, modelPlain) == faultsTagsDigest(t, b, modelPlain) {
		t.Fatalf("the two servers' manifests of %s agree: the test proves nothing", modelPlain)
	}
	hosts := a + "," + b
	doctor := bench(t, "doctor", "--host", hosts, "--model", modelPlain, "--tracks", "workflow", "--tasks", task)
	if doctor.code != 0 || !strings.Contains(doctor.stdout, modelPlain+" is the same on all 2 hosts") {
		t.Fatalf("doctor of two servers with one gguf:\n%s", doctor)
	}
	out := filepath.Join(t.TempDir(), "run")
	run := bench(t, "run", "--host", hosts, "--model", modelPlain, "--tracks", "workflow", "--tasks", task, "--seeds", "1,2", "--max-tokens", "8", "--out", out)
	if run.code != 0 {
		t.Fatalf("run on two servers with one gguf:\n%s", run)
	}
	data, err := record.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := faultsFileDigest(t, filepath.Join(dir, "tiny.gguf")); data.Run.ModelDigest != want || len(data.Episodes) != 2 {
		t.Fatalf("run.json model_digest %q, %d episodes; want the gguf's %s and 2", data.Run.ModelDigest, len(data.Episodes), want)
	}

	// The same weights under another template: the replies would differ.
	create := exec.Command(filepath.Join(dir, "ollama"), "create", modelPlain, "-f", filepath.Join(dir, "Modelfile.tinytools"))
	create.Env = append(os.Environ(), "OLLAMA_HOST="+strings.TrimPrefix(b, "http://"), "HOME="+filepath.Join(dir, "home"))
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("re-creating %s on the second server: %v\n%s", modelPlain, err, out)
	}
	const want = "the same weights of " + modelPlain + " with another template"
	doctor = bench(t, "doctor", "--host", hosts, "--model", modelPlain, "--tracks", "workflow", "--tasks", task)
	run = bench(t, "run", "--host", hosts, "--model", modelPlain, "--tracks", "workflow", "--tasks", task, "--seeds", "1", "--max-tokens", "8", "--out", filepath.Join(t.TempDir(), "never"))
	if doctor.code == 0 || run.code == 0 || !strings.Contains(doctor.stdout, want) || !strings.Contains(run.stderr, want) {
		t.Fatalf("want doctor and run both refusing with %q:\n%s\n%s", want, doctor, run)
	}
}

// TestFaultsRefusalsByCause: against the real server, each reason bench
// run cannot start is its own message, naming the model's fault as the
// model's and the server's as the server's, and nothing is created.
func TestFaultsRefusalsByCause(t *testing.T) {
	needFull(t)
	t.Parallel()
	hostport := strings.TrimPrefix(suite.server.URL, "http://")
	closed := "http://127.0.0.1:1"
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"missing model", []string{"--host", suite.server.URL, "--model", "nosuch", "--tracks", "workflow"},
			[]string{"is up, but it has no model nosuch", "`OLLAMA_HOST=" + hostport + " ollama pull nosuch`"}},
		{"no tool support", []string{"--host", suite.server.URL, "--model", modelPlain, "--tracks", "workflow,agent"},
			[]string{"cannot call tools, which the agent track needs", "--tracks workflow"}},
		{"cannot think", []string{"--host", suite.server.URL, "--model", modelPlain, "--tracks", "workflow", "--think"},
			[]string{modelPlain + " cannot think, which --think asks for", "drop --think"}},
		{"unreachable", []string{"--host", closed, "--model", modelPlain, "--tracks", "workflow"},
			[]string{"could not reach the model server at " + closed, "ollama serve", "ollama pull " + modelPlain}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "never")
			r := bench(t, append([]string{"run", "--tasks", task, "--seeds", "1", "--out", out}, c.args...)...)
			if r.code == 0 {
				t.Fatalf("not refused:\n%s", r)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r)
				}
			}
			if strings.Contains(r.stderr, "could not use") && c.name != "unreachable" {
				t.Errorf("the refusal blames the server:\n%s", r)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("the refused run created %s", out)
			}
		})
	}
}
