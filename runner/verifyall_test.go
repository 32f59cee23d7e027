package runner

import (
	"context"
	"os"
	"testing"

	"bench/tasks"
	"bench/track/tracktest"
)

func TestVerifyAllCachesVerifiedTasks(t *testing.T) {
	tracktest.NeedPython(t)
	all, err := tasks.Load(tasks.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	cache := VerifyCache{Dir: t.TempDir()}
	vs := VerifyAll(context.Background(), all, cache)
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
	for _, v := range VerifyAll(dead, all, cache) {
		if !v.OK() {
			t.Fatalf("%s was checked again instead of read from the cache: %+v", v.Task, v.Checks)
		}
	}
	// Without the cache, the cancelled checks fail: the test above can fail.
	if VerifyAll(dead, all[:1], VerifyCache{})[0].OK() {
		t.Fatal("a verification with a cancelled context passed")
	}
}

func TestVerifyCacheMissesAChangedTask(t *testing.T) {
	tk := task(t, "leap_year")
	cache := VerifyCache{Dir: t.TempDir()}
	v := Verification{Task: tk.Name, Checks: []Check{{Name: CheckSolution, OK: true}}}
	cache.store(tk, "sha256:aaa", v)
	if _, ok := cache.load(tk, "sha256:aaa"); !ok {
		t.Fatal("a stored verification is not found")
	}
	if _, ok := cache.load(tk, "sha256:bbb"); ok {
		t.Fatal("a task with another checksum hit the cache")
	}
	if _, ok := (VerifyCache{}).load(tk, "sha256:aaa"); ok {
		t.Fatal("the zero cache answered")
	}
}
