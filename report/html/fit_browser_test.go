package html

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"bench/record"
	"bench/trackfacts"
)

// suiteRun is a run of n tasks, some with long names, on the workflow and
// the agent, two seeds each; tokens says whether the episodes spent any.
func suiteRun(n int, tokens bool) record.Data {
	run := record.Run{ID: fmt.Sprintf("suite-%d", n), Model: "m", Tracks: []string{"workflow", "agent"}}
	var eps []record.Episode
	for i := range n {
		name := fmt.Sprintf("task_%02d", i)
		if i%5 == 3 {
			name = fmt.Sprintf("word_frequency_with_a_long_name_%02d", i)
		}
		run.Tasks = append(run.Tasks, record.TaskRef{Name: name})
		for _, track := range run.Tracks {
			for seed := 1; seed <= 2; seed++ {
				ep := record.Episode{Task: name, Track: track, Model: "m", Seed: seed, Passed: (i+seed)%3 != 0, TestsTotal: 1, ExitReason: record.ExitDone}
				if ep.Passed {
					ep.TestsPassed = 1
				}
				if tokens {
					ep.PromptTokens, ep.CompletionTokens = 500*(i+1), 40
				}
				eps = append(eps, ep)
			}
		}
	}
	return record.Data{Run: run, Episodes: eps}
}

// fitCheck measures, in the page as laid out, whether the document
// scrolls sideways, each chart's task labels (how many, whether any is
// cut or leaves the window, their smallest font size) and the smallest
// text of the charts' ticks and bar labels.
const fitCheck = `(function(){
var vw=document.documentElement.clientWidth, out={scroll:document.documentElement.scrollWidth>vw, charts:[]};
document.querySelectorAll("figure.chart").forEach(function(f){
  var c={labels:0, cut:[], minFont:99, overflow:f.scrollWidth>f.clientWidth+1};
  f.querySelectorAll(".task").forEach(function(l){
    c.labels++; var r=l.getBoundingClientRect();
    if(l.scrollWidth>l.clientWidth+1||r.right>vw+0.5||r.left<-0.5) c.cut.push(l.textContent);
    c.minFont=Math.min(c.minFont, parseFloat(getComputedStyle(l).fontSize));
  });
  f.querySelectorAll(".tick,.n").forEach(function(l){
    c.minFont=Math.min(c.minFont, parseFloat(getComputedStyle(l).fontSize));
    var r=l.getBoundingClientRect(); if(r.right>vw+0.5) c.cut.push(l.textContent);
  });
  out.charts.push(c);
});
return out})()`

type fitResult struct {
	Scroll bool `json:"scroll"`
	Charts []struct {
		Labels   int      `json:"labels"`
		Cut      []string `json:"cut"`
		MinFont  float64  `json:"minFont"`
		Overflow bool     `json:"overflow"`
	} `json:"charts"`
}

// TestBrowserPageFitsAnySuite: at 1000, 1400 and 1920 px wide, with 4, 16
// and 40 tasks, the page does not scroll sideways, both charts show every
// task's label whole and inside the window, and no chart text is smaller
// than trackfacts.MinFontPx; a run that spent no tokens has no token chart.
// Short mode checks the corners (the fewest and the most tasks, the
// narrowest and the widest window): each page load took about 0.4 s of
// wall time here (the package's browser tests, 9 loads against 4: 5.9-7.1 s
// wall against 7.2-9.3 s).
func TestBrowserPageFitsAnySuite(t *testing.T) {
	ctx, errs := browser(t)
	sizes, widths := []int{4, 16, 40}, []int64{1000, 1400, 1920}
	if testing.Short() {
		sizes, widths = []int{4, 40}, []int64{1000, 1920}
	}
	for _, n := range sizes {
		url := writePage(t, []record.Data{suiteRun(n, true)}, Options{})
		for _, w := range widths {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900), chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#episodes"))); err != nil {
				t.Fatal(err)
			}
			got := run(t, ctx, chromedp.Evaluate[fitResult](fitCheck))
			if got.Scroll {
				t.Errorf("%d tasks at %d px: the page scrolls sideways", n, w)
			}
			if len(got.Charts) != 2 {
				t.Fatalf("%d tasks at %d px: %d charts, want 2", n, w, len(got.Charts))
			}
			for i, c := range got.Charts {
				if c.Labels != n || len(c.Cut) > 0 || c.Overflow || c.MinFont < trackfacts.MinFontPx {
					t.Errorf("%d tasks at %d px, chart %d: %d task labels (want %d), cut or outside the window: %v, overflowing %v, smallest text %.1f px (want >= %d)",
						n, w, i+1, c.Labels, n, strings.Join(c.Cut, ", "), c.Overflow, c.MinFont, trackfacts.MinFontPx)
				}
			}
		}
	}
	// The control: the same check sees labels cut and text too small once
	// the page's chart style is undone.
	spoil := `(function(){var s=document.createElement("style");s.textContent=".hc .task{white-space:nowrap;max-width:3em;overflow:hidden;font-size:8px}";document.head.appendChild(s);return true})()`
	run(t, ctx, chromedp.Evaluate[bool](spoil))
	if got := run(t, ctx, chromedp.Evaluate[fitResult](fitCheck)); len(got.Charts) == 0 || len(got.Charts[0].Cut) == 0 || got.Charts[0].MinFont >= trackfacts.MinFontPx {
		t.Errorf("the check does not see labels cut to 3em at 8 px: %+v", got.Charts)
	}
	url := writePage(t, []record.Data{suiteRun(4, false)}, Options{})
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900), chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#episodes"))); err != nil {
		t.Fatal(err)
	}
	if got := run(t, ctx, chromedp.Evaluate[fitResult](fitCheck)); len(got.Charts) != 1 {
		t.Errorf("a run without tokens draws %d charts, want the pass rate alone", len(got.Charts))
	}
	if e := errs.get(); len(e) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(e, "\n"))
	}
}
