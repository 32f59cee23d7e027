package html

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"bench/record"
	"bench/report"
)

// findChromium returns the path of the system's Chromium (or Chrome), or
// "" when there is none.
func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// EnvBrowserRequired is the environment variable that, set to "1" (as
// CI sets it), makes a missing Chromium fail the browser tests instead of
// skipping them, as BENCH_OLLAMA_REQUIRED does for the real-server suite.
const EnvBrowserRequired = "BENCH_BROWSER_REQUIRED"

// noChromium is why the browser tests cannot run when there is no
// Chromium, and whether that fails them (EnvBrowserRequired) rather than
// skipping them.
func noChromium() (why string, fail bool) {
	why = "no chromium on PATH (install it with apt-get install -y chromium to run the browser test)"
	if os.Getenv(EnvBrowserRequired) == "1" {
		return why + " and " + EnvBrowserRequired + "=1", true
	}
	return "skipped: " + why, false
}

// browser starts a headless Chromium with a fresh profile and returns a
// tab's context and the errors its pages log to the console.
func browser(t *testing.T) (context.Context, *consoleErrors) {
	t.Helper()
	path := findChromium()
	if path == "" {
		why, fail := noChromium()
		if fail {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	errs := &consoleErrors{}
	listen := func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				errs.add(fmt.Sprintf("console.%s: %d arguments", ev.Type, len(ev.Args)))
			}
		case *runtime.EventExceptionThrown:
			errs.add(fmt.Sprintf("exception: %s at %s:%d", ev.ExceptionDetails.Text, ev.ExceptionDetails.URL, ev.ExceptionDetails.LineNumber))
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				errs.add("log: " + ev.Entry.Text + " " + ev.Entry.URL)
			}
		}
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(listen))
	if err := chromedp.Do(bctx); err != nil { // starts the browser, on a context without a timeout
		cancel()
		cancelAlloc()
		t.Fatalf("starting %s: %v", path, err)
	}
	ctx, cancelTimeout := context.WithTimeout(bctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enabling the log of %s: %v", path, err)
	}
	return ctx, errs
}

// consoleErrors collects what a page logs as errors.
type consoleErrors struct {
	mu   sync.Mutex
	list []string
}

func (c *consoleErrors) add(s string) { c.mu.Lock(); c.list = append(c.list, s); c.mu.Unlock() }

func (c *consoleErrors) get() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.list...)
}

// writePage writes the page of runs to a file and returns its file:// URL.
func writePage(t testing.TB, runs []record.Data, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, report.FromData(runs).Report(), runs, opts); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.(interface{ TempDir() string }).TempDir(), "report.html")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + path
}

// episodeIDs are the element ids of the runs' finished episodes.
func episodeIDs(runs []record.Data) []string {
	var ids []string
	for _, d := range runs {
		for _, e := range d.Episodes {
			ids = append(ids, "episode-"+e.Task+"-"+e.Track+"-"+strconv.Itoa(e.Seed)+"-"+strconv.Itoa(e.Repeat))
		}
	}
	return ids
}

// missingIDs is a script that lists which of ids have no element.
func missingIDs(ids []string) string {
	return `(function(ids){return ids.filter(function(id){return !document.getElementById(id)})})(["` + strings.Join(ids, `","`) + `"])`
}

// chartCheck is a script that counts, per chart, its bars, and the rows
// of the per-task table.
const chartCheck = `({bars: Array.from(document.querySelectorAll("figure.chart")).map(function(s){return s.querySelectorAll("a.bar").length}),
rows: document.querySelectorAll("#tasks tr[id^=row-]").length})`

type chartCounts struct {
	Bars []int `json:"bars"`
	Rows int   `json:"rows"`
}

func TestBrowserFixture(t *testing.T) {
	ctx, errs := browser(t)
	runs := readFixture(t)
	url := writePage(t, runs, Options{Predictions: fixtureScore()})
	type divergeRow struct {
		Step       string `json:"step"`
		Background string `json:"background"`
	}
	barWidth := chromedp.Evaluate[float64](`document.querySelector("#episode-slugify-workflow-1-0 .k-test .b").getBoundingClientRect().width`)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.CSS("#episodes"))); err != nil {
		t.Fatal(err)
	}
	missing := run(t, ctx, chromedp.Evaluate[[]string](missingIDs(episodeIDs(runs))))
	charts := run(t, ctx, chromedp.Evaluate[chartCounts](chartCheck))
	diverge := run(t, ctx, chromedp.Evaluate[divergeRow](`(function(){var r=document.querySelector("#twins-parse_date-agent-1 tr.diverge");
return r?{step:r.cells[0].textContent, background:getComputedStyle(r.cells[1]).backgroundColor}:{step:"",background:""}})()`))
	tokenW := run(t, ctx, barWidth)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("by-time"))); err != nil {
		t.Fatal(err)
	}
	timeW := run(t, ctx, barWidth)
	class := run(t, ctx, chromedp.Evaluate[string](`document.body.className`))
	if len(missing) > 0 {
		t.Errorf("episodes without their element: %v", missing)
	}
	if len(charts.Bars) != 2 || charts.Rows == 0 || charts.Bars[0] != charts.Rows || charts.Bars[1] != charts.Rows {
		t.Errorf("charts have %v bars for %d table rows; want two charts with a bar per row", charts.Bars, charts.Rows)
	}
	if !strings.HasPrefix(diverge.Step, "2") || diverge.Background != "rgb(255, 227, 194)" {
		t.Errorf("the twin section's divergent row = step %q with background %q; want step 2, highlighted", diverge.Step, diverge.Background)
	}
	if class != "by-time" || tokenW == timeW {
		t.Errorf("switching to time: body class %q, a test bar %.1f px by tokens and %.1f px by time; want the class and another width", class, tokenW, timeW)
	}
	if shot := os.Getenv("HTML_SCREENSHOT"); shot != "" {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url)); err != nil {
			t.Fatal(err)
		}
		png := run(t, ctx, chromedp.CaptureScreenshot()) // the first screen: headline and charts
		if err := os.WriteFile(shot, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", shot, len(png))
		if err := chromedp.Do(ctx, chromedp.Navigate(url+"#twins-parse_date-agent-1")); err != nil {
			t.Fatal(err)
		}
		png = run(t, ctx, chromedp.CaptureScreenshot()) // the twins and the first episode
		twins := strings.TrimSuffix(shot, ".png") + "-twins.png"
		if err := os.WriteFile(twins, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s (%d bytes)", twins, len(png))
	}
	if e := errs.get(); len(e) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(e, "\n"))
	}
}

func TestBrowser1000(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short: renders a generated 1,000-episode page")
	}
	ctx, errs := browser(t)
	runs := genRun(t, t.TempDir())
	url := writePage(t, runs, Options{})
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil { // the tab is up before the clock starts
		t.Fatal(err)
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	height := run(t, ctx, chromedp.Evaluate[float64](`document.body.getBoundingClientRect().height`))
	elapsed := time.Since(start)
	t.Logf("the 1,000-episode page loaded and laid out in %v (%.0f px tall)", elapsed.Round(time.Millisecond), height)
	missing := run(t, ctx, chromedp.Evaluate[[]string](missingIDs(episodeIDs(runs))))
	charts := run(t, ctx, chromedp.Evaluate[chartCounts](chartCheck))
	target := "episode-task_07-agent-13-1"
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"#"+target)); err != nil {
		t.Fatal(err)
	}
	opened := run(t, ctx, chromedp.Evaluate[bool](`document.querySelector("#`+target+` > details").open && !!document.querySelector("#`+target+` ol.tl li.s")`))
	if len(missing) > 0 {
		t.Errorf("%d episodes without their element, such as %v", len(missing), missing[0])
	}
	if len(charts.Bars) != 2 || charts.Bars[0] != charts.Rows || charts.Bars[1] != charts.Rows {
		t.Errorf("charts have %v bars for %d table rows", charts.Bars, charts.Rows)
	}
	if !opened {
		t.Errorf("following a link to %s does not unfold the episode and build its timeline", target)
	}
	if e := errs.get(); len(e) > 0 {
		t.Errorf("the page logged errors:\n%s", strings.Join(e, "\n"))
	}
}

// run runs a browser action and returns its value, failing the test on error.
func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
