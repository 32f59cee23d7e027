package verify

import (
	"context"
	"os"
	"testing"

	"bench/internal/testsupport/fixture"
	"bench/tasks"
)

// TestAllCachesVerifiedTasks runs the oracle check of every course task
// through All, the short-mode twin of TestVerifySuite: each passes every
// check it must make (checkVerified), each pass is cached, and a second
// All with a cancelled context is answered from the cache alone.
func TestAllCachesVerifiedTasks(t *testing.T) {
	fixture.ParallelPython(t)
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	cache := Cache{Dir: t.TempDir()}
	vs := All(context.Background(), all, cache)
	for i, v := range vs {
		if v.Task != all[i].Name {
			t.Fatalf("verification %d is of %s, want %s", i, v.Task, all[i].Name)
		}
		checkVerified(t, all[i], v)
	}
	if t.Failed() {
		t.FailNow()
	}
	entries, _ := os.ReadDir(cache.Dir)
	if len(entries) != len(all) {
		t.Fatalf("%d cache entries, want %d", len(entries), len(all))
	}
	// With a cancelled context no test can run: only the cache can answer.
	dead, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range All(dead, all, cache) {
		if !v.OK() {
			t.Fatalf("%s was checked again instead of read from the cache: %+v", v.Task, v.Checks)
		}
	}
	// Without the cache, the cancelled checks fail: the test above can fail.
	if All(dead, all[:1], Cache{})[0].OK() {
		t.Fatal("a verification with a cancelled context passed")
	}
}
