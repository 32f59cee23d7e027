package report

import (
	"strings"
	"testing"

	"bench/record"
)

// modelEpisodes are passing episodes of one task on both paired tracks.
func modelEpisodes(model string, seeds ...int) []record.Episode {
	var eps []record.Episode
	for _, s := range seeds {
		for _, tr := range []string{"workflow", "agent"} {
			eps = append(eps, record.Episode{Task: "t", Track: tr, Model: model, Seed: s, Passed: tr == "agent" || s%2 == 0,
				TestsPassed: 1, TestsTotal: 1, ExitReason: record.ExitDone, PromptTokens: 100, CompletionTokens: 10})
		}
	}
	for i := range eps {
		if !eps[i].Passed {
			eps[i].TestsPassed = 0
		}
	}
	return eps
}

func TestReportKeepsModelsApart(t *testing.T) {
	two := record.Run{ID: "two", Model: "a,b", Models: []record.ModelRef{{Name: "a", Digest: "sha256:a"}, {Name: "b", Digest: "sha256:b"}}}
	eps := append(modelEpisodes("a", 1, 2), modelEpisodes("b", 1, 2, 3)...)
	rep := FromData([]record.Data{{Run: two, Episodes: eps}}).Report()
	got := map[string]int{}
	for _, r := range rep.Rows {
		got[r.Model+"/"+r.Track] = r.N
	}
	if len(got) != 4 || got["a/agent"] != 2 || got["b/workflow"] != 3 {
		t.Errorf("rows by model/track: %v", got)
	}
	for _, m := range rep.McNemar {
		if want := map[string]int{"a": 2, "b": 3}[m.Model]; m.Pairs != want {
			t.Errorf("McNemar of model %q: %d pairs, want %d (pairs within one model)", m.Model, m.Pairs, want)
		}
	}
	if len(rep.Tracks) != 4 {
		t.Errorf("%d track rows, want one per track and model", len(rep.Tracks))
	}
	var text strings.Builder
	if err := WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "agent (b)") {
		t.Errorf("the text does not name the model after the track:\n%s", text.String())
	}
}

func TestMergedRunsOfTwoModelsAreNoSettingsDifference(t *testing.T) {
	a := record.Data{Run: record.Run{ID: "ra", Model: "a", ModelDigest: "sha256:a", RunSettings: record.RunSettings{Temperature: 0.7}}, Episodes: modelEpisodes("", 1)}
	b := record.Data{Run: record.Run{ID: "rb", Model: "b", ModelDigest: "sha256:b", RunSettings: record.RunSettings{Temperature: 0.7}}, Episodes: modelEpisodes("", 1)}
	rep := FromData([]record.Data{a, b}).Report()
	if len(rep.Rows) != 4 || rep.Rows[0].Model != "a" {
		t.Errorf("rows %+v: want the two runs' models apart, episodes without a model field given their run's", rep.Rows)
	}
	for _, f := range rep.Footnotes {
		if strings.Contains(f.Text, "differ") {
			t.Errorf("a footnote on two runs of two models: %s", f.Text)
		}
	}
}
