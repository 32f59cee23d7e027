package plan

import (
	"strings"
	"testing"
	"time"

	"bench/model"
	"bench/record"
	"bench/runner"
	"bench/tasks"
)

// TestOfAShard: a shard's plan says how many of the whole plan's episodes
// it holds (4 tasks × 2 tracks × 2 seeds is 16; half is 8), and what they
// may cost, counted per track by hand.
func TestOfAShard(t *testing.T) {
	course, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	s, err := runner.NewRun(runner.Spec{Model: modelConfig(), Tasks: course, Tracks: []string{"workflow", "agent"}, Seeds: []int{1, 2},
		RunSettings: record.RunSettings{MaxTokens: 100, MaxTurns: 4, Tries: 2, Parallel: 1, Posture: "off", Temperature: 0.7, NumCtx: 8192, EpisodeTimeoutMS: time.Minute.Milliseconds()},
		Shard:       &record.Shard{Index: 1, Count: 2}, Dir: t.TempDir() + "/lesson/run"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Of(s, "lesson/run")
	if err != nil {
		t.Fatal(err)
	}
	if p.Episodes != 8 || p.Total != 16 || p.EpisodesPhrase() != "8 of 16 episodes" || p.Dir != "lesson/run" {
		t.Errorf("plan %d of %d (%q) into %s", p.Episodes, p.Total, p.EpisodesPhrase(), p.Dir)
	}
	// 4 workflow episodes of 1 call; 4 agent episodes of 4+1 calls; 100 tokens a reply.
	if p.Cost != (Bound{Calls: 4 + 4*5, ReplyTokens: 100 * (4 + 4*5)}) {
		t.Errorf("cost %+v", p.Cost)
	}
	if line := p.CostLine(); !strings.Contains(line, "at most 24 model calls and 2,400 reply tokens for 8 episodes") || !strings.Contains(line, "--max-turns 4") {
		t.Errorf("cost line %q", line)
	}
	if p.Dims() != "4 tasks × 2 tracks × 2 seeds" {
		t.Errorf("dims %q", p.Dims())
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 425984: "425,984", 1234567: "1,234,567", -1200: "-1,200"} {
		if got := group(n); got != want {
			t.Errorf("group(%d) = %q, want %q", n, got, want)
		}
	}
}

// modelConfig is a model on a server nothing asks: Of contacts none.
func modelConfig() model.Config {
	return model.Config{Backend: model.BackendOllama, Host: "http://127.0.0.1:9", Model: "tiny", Timeout: time.Second}
}
