package verify

import (
	"context"
	"os"
	"testing"

	"bench/tasks"
	"bench/track/tracktest"
)

func TestAllCachesVerifiedTasks(t *testing.T) {
	tracktest.NeedPython(t)
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	cache := Cache{Dir: t.TempDir()}
	vs := All(context.Background(), all, cache)
	for i, v := range vs {
		if v.Task != all[i].Name || !v.OK() {
			t.Fatalf("verification %d: %+v", i, v)
		}
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
