// Package deploy_test checks the Kubernetes manifests of deploy/kubernetes
// by decoding them strictly into the real Kubernetes types: a misspelt or
// misplaced field fails here, not on the cluster.
package deploy_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decode reads a manifest into out, refusing unknown and duplicate fields.
func decode(t *testing.T, name string, out any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("kubernetes", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, out); err != nil {
		t.Fatalf("%s does not decode strictly: %v", name, err)
	}
}

// script is the shell text a container runs (command and args).
func script(c corev1.Container) string {
	return strings.Join(append(append([]string{}, c.Command...), c.Args...), " ")
}

// shardVars finds the variables a pod gives the shard block:
// sweep=/results k=$JOB_COMPLETION_INDEX n=N.
var shardVars = regexp.MustCompile(`(?m)^sweep=/results k=\$JOB_COMPLETION_INDEX n=([0-9]+) bench=bench$`)

func TestSweepJobIsAnIndexedJobOfShards(t *testing.T) {
	var job batchv1.Job
	decode(t, "sweep-job.yaml", &job)
	if job.APIVersion != "batch/v1" || job.Kind != "Job" {
		t.Fatalf("apiVersion %q kind %q, want batch/v1 Job", job.APIVersion, job.Kind)
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed", s.CompletionMode)
	}
	if s.Completions == nil || *s.Completions < 1 {
		t.Fatalf("completions %v, want the number of shards", s.Completions)
	}
	if s.BackoffLimitPerIndex == nil {
		t.Errorf("no backoffLimitPerIndex: one failing shard would use up the whole Job's retries")
	}
	pod := s.Template.Spec
	if pod.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never (backoffLimitPerIndex requires it)", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want the bench container", len(pod.Containers))
	}
	if s.PodReplacementPolicy == nil || *s.PodReplacementPolicy != batchv1.Failed {
		t.Errorf("podReplacementPolicy %v, want Failed: a retried pod must wait until the old one is gone", s.PodReplacementPolicy)
	}
	c := pod.Containers[0]
	sh := script(c)
	m := shardVars.FindStringSubmatch(sh)
	if m == nil {
		t.Fatalf("the container does not set sweep=/results k=$JOB_COMPLETION_INDEX n=… bench=bench for the shard block:\n%s", sh)
	}
	if n, _ := strconv.Atoi(m[1]); int32(n) != *s.Completions {
		t.Errorf("n=%d but completions: %d: shards would be missed or run twice", n, *s.Completions)
	}
	if !strings.Contains(sh, "# >>> shard") {
		t.Errorf("the container does not run the shard block:\n%s", sh)
	}
	checkRequests(t, c)
	checkResultsVolume(t, pod)
	if !hasEnv(c, "OLLAMA_HOST") && !strings.Contains(sh, "--host") {
		t.Errorf("the container names no model server (OLLAMA_HOST or --host)")
	}
}

func TestReportJobMergesTheShards(t *testing.T) {
	var job batchv1.Job
	decode(t, "report-job.yaml", &job)
	pod := job.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want one", len(pod.Containers))
	}
	if sh := script(pod.Containers[0]); !strings.Contains(sh, "sweep=/results bench=bench\n# >>> report") {
		t.Errorf("the report Job does not run the report block over /results:\n%s", sh)
	}
	checkRequests(t, pod.Containers[0])
	checkResultsVolume(t, pod)
}

func TestResultsClaim(t *testing.T) {
	var pvc corev1.PersistentVolumeClaim
	decode(t, "results-pvc.yaml", &pvc)
	if pvc.Name != "bench-results" || pvc.Spec.Resources.Requests.Storage().IsZero() {
		t.Errorf("claim %q with storage %v; want bench-results with a size", pvc.Name, pvc.Spec.Resources.Requests.Storage())
	}
}

// checkRequests wants cpu and memory requests, so the scheduler can place pods.
func checkRequests(t *testing.T, c corev1.Container) {
	t.Helper()
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := c.Resources.Requests[r]; !ok || q.IsZero() {
			t.Errorf("container %s requests no %s", c.Name, r)
		}
	}
}

// checkResultsVolume wants /results mounted from the bench-results claim.
func checkResultsVolume(t *testing.T, pod corev1.PodSpec) {
	t.Helper()
	mounted := ""
	for _, m := range pod.Containers[0].VolumeMounts {
		if m.MountPath == "/results" {
			mounted = m.Name
		}
	}
	for _, v := range pod.Volumes {
		if v.Name == mounted && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == "bench-results" {
			return
		}
	}
	t.Errorf("/results is not mounted from the bench-results claim")
}

func hasEnv(c corev1.Container, name string) bool {
	for _, e := range c.Env {
		if e.Name == name && e.Value != "" {
			return true
		}
	}
	return false
}
