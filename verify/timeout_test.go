package verify

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"bench/internal/testsupport/fixture"
)

// An original that times out has not shown the failure its task was
// designed for: a slow machine's timeout must not pass "original fails".
func TestVerifyOriginalTimeoutIsNotItsFailure(t *testing.T) {
	fixture.ParallelPython(t)
	tk := brokenTask(t)
	m := tk.FS.(fstest.MapFS)
	m["repo/leap.py"] = &fstest.MapFile{Data: []byte("import time\ntime.sleep(600)\n")}
	tk.Timeout = 2 * time.Second
	v := Task(context.Background(), tk)
	for _, c := range v.Checks {
		if c.Name == CheckOriginal && (c.OK || !strings.Contains(c.Detail, "timed out")) {
			t.Errorf("original check of a run that timed out: ok %v, %s", c.OK, c.Detail)
		}
	}
	if v.OK() {
		t.Error("a task whose original timed out verified")
	}
}
