package verify

import (
	"encoding/json"
	"os"
	"testing"

	"bench/internal/testsupport/fixture"
)

// TestVerifyCacheKeyNamesTheTestTool: a verification is kept per test
// tool, so a Go task is checked again under another go, not only under
// another python3.
func TestVerifyCacheKeyNamesTheTestTool(t *testing.T) {
	tk := fixture.CourseTask(t, "leap_year")
	other := tk
	other.TestCmd = []string{"sh", "-c", "true"}
	c := Cache{Dir: t.TempDir()}
	if c.path(tk, "sha256:a") == c.path(other, "sha256:a") {
		t.Fatal("the cache key does not depend on the task's test command")
	}
}

func TestVerifyCacheMissesAChangedTask(t *testing.T) {
	tk := fixture.CourseTask(t, "leap_year")
	cache := Cache{Dir: t.TempDir()}
	v := Verification{Task: tk.Name, Checks: []Check{{Name: CheckSolution, OK: true}}}
	cache.store(tk, "sha256:aaa", v)
	if _, ok := cache.load(tk, "sha256:aaa"); !ok {
		t.Fatal("a stored verification is not found")
	}
	if _, ok := cache.load(tk, "sha256:bbb"); ok {
		t.Fatal("a task with another checksum hit the cache")
	}
	if _, ok := (Cache{}).load(tk, "sha256:aaa"); ok {
		t.Fatal("the zero cache answered")
	}
}

// TestVerifyCacheTakesOnlyPassesOfTheTask: a task that fails its check
// leaves no entry, and an entry planted at a task's key is taken only when
// it is a pass of that task; the control, a planted pass, is taken, so the
// refusals can fail.
func TestVerifyCacheTakesOnlyPassesOfTheTask(t *testing.T) {
	fixture.ParallelPython(t)
	if v, entries := brokenVerified(t); v.OK() || entries != 0 {
		t.Fatalf("the broken task passed (%+v) or its failed check left %d cache entries", v.Checks, entries)
	}
	cache := Cache{Dir: t.TempDir()}
	tk := fixture.CourseTask(t, "leap_year")
	pass := []Check{{Name: CheckSolution, OK: true}}
	for name, v := range map[string]Verification{
		"another task's pass": {Task: "parse_date", Checks: pass},
		"a failed check":      {Task: tk.Name, Checks: []Check{{Name: CheckSolution, OK: true}, {Name: CheckOriginal}}},
		"no check at all":     {Task: tk.Name},
		"not JSON":            {},
	} {
		b, _ := json.Marshal(v)
		if name == "not JSON" {
			b = []byte("{")
		}
		os.MkdirAll(cache.Dir, 0o755)
		if err := os.WriteFile(cache.path(tk, "sha256:x"), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, ok := cache.load(tk, "sha256:x"); ok {
			t.Errorf("%s was taken from the cache", name)
		}
	}
	b, _ := json.Marshal(Verification{Task: tk.Name, Checks: pass})
	os.WriteFile(cache.path(tk, "sha256:x"), b, 0o644)
	if _, ok := cache.load(tk, "sha256:x"); !ok {
		t.Error("the control, a pass of the task, was not taken")
	}
}
