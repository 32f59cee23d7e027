package deploy_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The shard and report blocks are the rules every engine follows: which
// folder a shard writes, when it resumes, that it never runs twice at once,
// and which folders the report merges. deploy/bench-sweep holds them; the
// Slurm script and the Kubernetes Jobs hold copies, which must not drift.

// block is the text between "# >>> name" and "# <<< name" in text, each
// line without its indentation (a YAML literal and a shell script indent
// differently; the shell does not care), blank lines dropped; nil when
// text has no such block.
func block(text, name string) []string {
	var out []string
	in := false
	for line := range strings.Lines(text) {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "# >>> "+name):
			in = true
		case strings.HasPrefix(l, "# <<< "+name):
			return out
		case in && l != "":
			out = append(out, l)
		}
	}
	return nil
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// containerScript is the shell text of the one container of the Job in manifest.
func containerScript(t *testing.T, manifest string) string {
	t.Helper()
	var job batchv1.Job
	decode(t, manifest, &job)
	return script(job.Spec.Template.Spec.Containers[0])
}

// TestScriptsShareTheShardAndReportBlocks: the Slurm script and the
// Kubernetes Jobs run deploy/bench-sweep's blocks, line for line.
func TestScriptsShareTheShardAndReportBlocks(t *testing.T) {
	canonical := readText(t, "bench-sweep")
	sbatch := readText(t, "slurm/bench-sweep.sbatch")
	for _, c := range []struct{ name, where, text string }{
		{"shard", "slurm/bench-sweep.sbatch", sbatch},
		{"report", "slurm/bench-sweep.sbatch", sbatch},
		{"shard", "kubernetes/sweep-job.yaml", containerScript(t, "sweep-job.yaml")},
		{"report", "kubernetes/report-job.yaml", containerScript(t, "report-job.yaml")},
	} {
		want := block(canonical, c.name)
		if len(want) < 10 {
			t.Fatalf("deploy/bench-sweep has no %s block", c.name)
		}
		got := block(c.text, c.name)
		if got == nil {
			t.Errorf("%s has no %s block", c.where, c.name)
			continue
		}
		for i := range max(len(got), len(want)) {
			g, w := at(got, i), at(want, i)
			if g != w {
				t.Errorf("%s's %s block differs from deploy/bench-sweep's at its line %d:\n got %q\nwant %q", c.where, c.name, i+1, g, w)
				break
			}
		}
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of the block)"
}

// TestNoKubernetesExpansionInTheScripts: Kubernetes expands $(NAME) in a
// container's command and args, and turns $$ into $, before the shell sees
// them; neither may occur in the scripts, or the pod would run another one.
func TestNoKubernetesExpansionInTheScripts(t *testing.T) {
	ref := regexp.MustCompile(`\$\$|\$\([A-Za-z_][A-Za-z0-9_]*\)`)
	for _, m := range []string{"sweep-job.yaml", "report-job.yaml"} {
		if found := ref.FindAllString(containerScript(t, m), -1); found != nil {
			t.Errorf("%s: Kubernetes would expand %q", m, found)
		}
	}
	// The control: the check sees what Kubernetes would expand.
	if ref.FindAllString(`echo $$ $(HOME) $(q "$a") $((k + 1))`, -1) == nil {
		t.Error("the check misses $$ and $(HOME)")
	}
}

// sbatchOption is the value of "#SBATCH --name=value" in the Slurm script.
func sbatchOption(t *testing.T, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^#SBATCH --` + name + `=(\S+)$`).FindStringSubmatch(readText(t, "slurm/bench-sweep.sbatch"))
	if m == nil {
		t.Fatalf("the Slurm script has no #SBATCH --%s", name)
	}
	return m[1]
}

// TestSlurmAndKubernetesAgree: a Slurm task and a pod get the same
// resources, and the documented sweeps the same bench run flags.
func TestSlurmAndKubernetesAgree(t *testing.T) {
	var job batchv1.Job
	decode(t, "sweep-job.yaml", &job)
	c := job.Spec.Template.Spec.Containers[0]
	if cpu := c.Resources.Requests.Cpu(); cpu.String() != sbatchOption(t, "cpus-per-task") {
		t.Errorf("a pod requests %s CPUs, a Slurm task %s", cpu, sbatchOption(t, "cpus-per-task"))
	}
	mem := resource.MustParse(strings.TrimSuffix(sbatchOption(t, "mem"), "G") + "Gi") // Slurm's G is 1024³ bytes
	if limit := c.Resources.Limits.Memory(); limit.Cmp(mem) != 0 {
		t.Errorf("a pod's memory limit is %s, a Slurm task's --mem %s", limit, sbatchOption(t, "mem"))
	}
	pod := flagsAfter(t, script(c), "set -- ")
	readme := readText(t, "README.md")
	for _, recipe := range []struct{ name, prefix, end string }{
		{"the Slurm recipe", "sbatch --array=0-3 deploy/slurm/bench-sweep.sbatch results/sweep ", ""},
		{"the GNU parallel recipe", "parallel --link -j 3 deploy/bench-sweep shard results/sweep {1} 3 --host {2} ", " :::"},
	} {
		got := flagsAfter(t, readme, recipe.prefix)
		if i := slices.Index(got, strings.TrimSpace(recipe.end)); recipe.end != "" && i >= 0 {
			got = got[:i]
		}
		if !slices.Equal(got, pod) {
			t.Errorf("%s in deploy/README.md runs %q, the Kubernetes pods %q", recipe.name, got, pod)
		}
	}
}

// flagsAfter are the words after the first line of text that starts with
// prefix (leading blanks aside).
func flagsAfter(t *testing.T, text, prefix string) []string {
	t.Helper()
	for line := range strings.Lines(text) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix); ok {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no line starts with %q", prefix)
	return nil
}
