package runner

import (
	"fmt"
	"strings"
	"testing"

	"bench/grade"
	"bench/model"
	"bench/record"
)

// TestTableAgreesWithTheModelPackage: the settings' table lives in record,
// which cannot import model or grade; what it says of their numbers is
// checked here against theirs, so that the help and the checks cannot
// drift from what the client and grading do.
func TestTableAgreesWithTheModelPackage(t *testing.T) {
	defaultCap := (model.Config{}).ReplyCap(model.Options{MaxReplyTokens: record.DefaultMaxTokens})
	cap := fmt.Sprintf("%d KiB for %d", defaultCap>>10, record.DefaultMaxTokens)
	d, _ := record.Lookup("max-reply-bytes")
	if !strings.Contains(d.Help, cap) {
		t.Errorf("--max-reply-bytes' help %q does not say the default cap, %s", d.Help, cap)
	}
	s := record.DefaultSettings()
	s.MaxReplyBytes = -1
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), cap) {
		t.Errorf("--max-reply-bytes -1: %v, want the default cap %s named", err, cap)
	}
	w, _ := record.Lookup("workspace-limit")
	if n, err := grade.ParseSize(w.Shown); err != nil || n != record.DefaultWorkspaceLimit {
		t.Errorf("--workspace-limit shows the default %q = %d, %v; grading's is %d", w.Shown, n, err, record.DefaultWorkspaceLimit)
	}
	b, _ := record.Lookup("backend")
	for _, ok := range []string{model.BackendOllama, model.BackendOpenAI} {
		if err := b.Check(b.Name, ok); err != nil {
			t.Errorf("the table refuses the backend %s: %v", ok, err)
		}
	}
	if err := b.Check(b.Name, "grpc"); err == nil || err.Error() != `unknown --backend "grpc": use ollama or openai` {
		t.Errorf("--backend grpc: %v", err)
	}
}

// TestSpecChecksEverySettingOfTheTable: a spec with one setting of the
// table made bad is refused naming that setting's flag, for every setting
// with a check: Spec.Check runs the table's checks, none is left out.
func TestSpecChecksEverySettingOfTheTable(t *testing.T) {
	bad := map[string]func(*record.RunSettings){
		"temperature": func(s *record.RunSettings) { s.Temperature = -1 }, "num-ctx": func(s *record.RunSettings) { s.NumCtx = 0 },
		"top-p": func(s *record.RunSettings) { s.TopP = 2 }, "max-tokens": func(s *record.RunSettings) { s.MaxTokens = -1 },
		"max-reply-bytes": func(s *record.RunSettings) { s.MaxReplyBytes = -1 }, "workspace-limit": func(s *record.RunSettings) { s.WorkspaceLimit = -1 },
		"posture": func(s *record.RunSettings) { s.Posture = "x" }, "max-turns": func(s *record.RunSettings) { s.MaxTurns = 0 },
		"token-limit": func(s *record.RunSettings) { s.TokenLimit = -1 }, "episode-timeout": func(s *record.RunSettings) { s.EpisodeTimeoutMS = -1 },
		"tries": func(s *record.RunSettings) { s.Tries = 0 }, "workflow-model": func(s *record.RunSettings) { s.WorkflowModel = " a" },
		"parallel": func(s *record.RunSettings) { s.Parallel = 0 }, "parallel-per-host": func(s *record.RunSettings) { s.ParallelPerHost = -1 },
	}
	for _, d := range record.Table {
		if d.Source != record.FromTable || d.Check == nil {
			continue
		}
		change, ok := bad[d.Name]
		if !ok {
			t.Errorf("%s has a check this test cannot make fail: add a bad value for it", d.Name)
			continue
		}
		s := oracleSpec(t, t.TempDir()+"/run")
		change(&s.RunSettings)
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), "--"+d.Name) {
			t.Errorf("a bad %s: %v, want an error naming --%s", d.Name, err, d.Name)
		}
	}
}
