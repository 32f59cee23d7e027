package html

import (
	"strings"
	"testing"
)

// TestMissingChromiumFailsWhenRequired: with BENCH_BROWSER_REQUIRED=1 (CI)
// a missing Chromium fails the browser tests, naming the variable; without
// it they skip, as on a machine without a browser.
func TestMissingChromiumFailsWhenRequired(t *testing.T) {
	t.Setenv(EnvBrowserRequired, "1")
	why, fail := noChromium()
	if !fail || !strings.Contains(why, EnvBrowserRequired+"=1") || !strings.Contains(why, "apt-get install -y chromium") {
		t.Errorf("required: fail %v, %q; want a failure that names %s and the fix", fail, why, EnvBrowserRequired)
	}
	t.Setenv(EnvBrowserRequired, "")
	why, fail = noChromium()
	if fail || !strings.HasPrefix(why, "skipped: no chromium on PATH") {
		t.Errorf("not required: fail %v, %q; want a skip", fail, why)
	}
}
