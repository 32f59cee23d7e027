package main

import (
	"path/filepath"
	"strings"
	"testing"

	"bench/internal/testsupport"
	"bench/internal/testsupport/fixture"
	"bench/model/modeltest"
	"bench/record"
)

// faultsWeights is the digest of one gguf's model layer, as two servers that
// `ollama create`d it each report it.
const faultsWeights = "sha256:fab661342352845e13700a5897e7ceb0bad55f62822e7579bbba0ab0d67f81ea"

// faultsPool starts two fake Ollama servers serving qwen3:8b as given,
// both answering as the solving model.
func faultsPool(t *testing.T, a, b modeltest.Model) (*modeltest.Server, *modeltest.Server) {
	t.Helper()
	solver := testsupport.NewSolver(t)
	var srvs [2]*modeltest.Server
	for i, m := range []modeltest.Model{a, b} {
		srvs[i] = modeltest.NewOllama(t, modeltest.Always(modeltest.Func(solver.Reply)))
		srvs[i].SetModels(m)
	}
	return srvs[0], srvs[1]
}

// faultsDoctorAndRun asks bench doctor and bench run the same question of
// two servers and checks that they answer alike: ready and run, or both
// refused with want in their words.
func faultsDoctorAndRun(t *testing.T, a, b *modeltest.Server, want string) record.Data {
	t.Helper()
	hosts := a.URL + "," + b.URL
	dstdout, _, derr := runCLI(t, "doctor", "--host", hosts, "--tracks", "workflow")
	dir := filepath.Join(t.TempDir(), "run")
	_, rstderr, rerr := runCLI(t, "run", "--host", hosts, "--tracks", "workflow", "--tasks", "leap_year", "--seeds", "1,2", "--out", dir)
	if (derr == nil) != (rerr == nil) {
		t.Fatalf("doctor and run disagree: doctor %v\n%s\nrun %v\n%s", derr, dstdout, rerr, rstderr)
	}
	if want == "" {
		if rerr != nil {
			t.Fatalf("run refused: %v\n%s", rerr, rstderr)
		}
		data, err := record.Read(dir)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if rerr == nil || !strings.Contains(dstdout, want) || !strings.Contains(rstderr, want) {
		t.Fatalf("want both refused with %q:\ndoctor: %v\n%s\nrun: %v\n%s", want, derr, dstdout, rerr, rstderr)
	}
	return record.Data{}
}

// TestFaultsSameWeightsOnTwoServersAgree: two servers that created one
// gguf each (manifest digests differ in a path only) serve the same model:
// doctor says ready, run runs and records the weights' digest.
func TestFaultsSameWeightsOnTwoServersAgree(t *testing.T) {
	fixture.FullOnly(t, "TestFaultsDifferentModelsOnTwoServersAreRefused and runner's TestPyramidTwoHosts")
	t.Parallel()
	a, b := faultsPool(t,
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:ef3be0f7a984", Weights: faultsWeights, Template: "{{ .Prompt }}", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:32b8876dae51", Weights: faultsWeights, Template: "{{ .Prompt }}", Capabilities: []string{"completion"}})
	data := faultsDoctorAndRun(t, a, b, "")
	if data.Run.ModelDigest != faultsWeights || len(data.Episodes) != 2 {
		t.Fatalf("model digest %q, %d episodes; want the weights' %q and 2", data.Run.ModelDigest, len(data.Episodes), faultsWeights)
	}
}

// TestFaultsDifferentModelsOnTwoServersAreRefused: different weights, or
// the same weights with another template, are refused by doctor and run
// alike, each saying which.
func TestFaultsDifferentModelsOnTwoServersAreRefused(t *testing.T) {
	t.Parallel()
	other := "sha256:0000000000000000000000000000000000000000000000000000000000000001"
	a, b := faultsPool(t,
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:aa", Weights: faultsWeights, Capabilities: []string{"completion"}},
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:bb", Weights: other, Capabilities: []string{"completion"}})
	faultsDoctorAndRun(t, a, b, "hold different weights of qwen3:8b")
	a, b = faultsPool(t,
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:aa", Weights: faultsWeights, Template: "{{ .Prompt }}", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:bb", Weights: faultsWeights, Template: "{{ .System }}{{ .Prompt }}", Capabilities: []string{"completion"}})
	faultsDoctorAndRun(t, a, b, "the same weights of qwen3:8b with another template")
	// Servers that name no weights are compared by their manifests.
	a, b = faultsPool(t,
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:aa", Capabilities: []string{"completion"}},
		modeltest.Model{Name: "qwen3:8b", Digest: "sha256:bb", Capabilities: []string{"completion"}})
	faultsDoctorAndRun(t, a, b, "hold different weights of qwen3:8b")
}
