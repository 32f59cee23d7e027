package detect

import (
	"os"
	"strings"
	"testing"
)

func TestSnapshotProjectFacts(t *testing.T) {
	e := newEnv(t)
	e.make("a/pyproject.toml", "a/setup.py", "a/setup.cfg", "a/requirements.txt", "a/package.json", "a/tsconfig.json",
		"a/deno.json", "a/uv.lock", "a/pnpm-lock.yaml", "a/AGENTS.md", "a/.cursorrules", "a/CLAUDE.md/", "a/pytest.ini",
		"a/scripts/run_tests.sh")
	e.write("a/package.json", `{"scripts": {"build": "tsc", "test": "vitest", "start": "node ."}}`)
	e.write("a/Makefile", "all:\n\tgo build\ntest: all\n\tgo test\nlint :\n\tvet\n")
	d, err := Detect(e.path("a"), "auto", "cli")
	if err != nil {
		t.Fatal(err)
	}
	want := SnapshotHeader + "\n" +
		"- Root: " + e.path("a") + "\n" +
		"- Project: pyproject.toml, setup.py, setup.cfg, requirements.txt, package.json, tsconfig.json (uv/pnpm)\n" +
		"- Verify: scripts/run_tests.sh; pnpm run test; pnpm run build; python -m pytest; make test; make lint\n" +
		"- Context files: AGENTS.md, .cursorrules"
	if d.Snapshot != want {
		t.Errorf("snapshot:\n%s\nwant:\n%s", d.Snapshot, want)
	}
}

func TestSnapshotVerifyPerManifest(t *testing.T) {
	for _, tc := range []struct{ files, verify string }{
		{"go.mod go.sum", "- Verify: go test ./..."},
		{"Cargo.toml Cargo.lock", "- Verify: cargo test"},
		{"requirements.txt", ""},
		{"package.json yarn.lock", ""}, // no scripts
	} {
		e := newEnv(t)
		for _, f := range strings.Fields(tc.files) {
			e.write("a/"+f, "{}\n")
		}
		d, _ := Detect(e.path("a"), "auto", "cli")
		got := ""
		for _, l := range strings.Split(d.Snapshot, "\n") {
			if strings.HasPrefix(l, "- Verify:") {
				got = l
			}
		}
		if got != tc.verify {
			t.Errorf("%s: verify line %q, want %q", tc.files, got, tc.verify)
		}
	}
}

func TestSnapshotGitState(t *testing.T) {
	e := newEnv(t)
	e.make("r/a.py", "r/b.py", "r/c.py")
	e.commit("r")
	e.write("r/a.py", "changed\n")                   // modified
	e.write("r/b.py", "staged\n")                    // staged
	e.git("r", "add", "b.py")                        //
	e.write("r/new.txt", "untracked\n")              // untracked
	e.write("r/requirements.txt", "untracked too\n") // untracked, and a manifest
	e.write("r/package-lock.json", "{}\n")           // untracked, and a lock
	d, err := Detect(e.path("r"), "auto", "cli")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		SnapshotHeader,
		"- Root: " + e.path("r"),
		"- Branch: main",
		"- Status: 1 staged, 1 modified, 3 untracked",
		"- Recent commits:",
		"    " + e.git("r", "rev-parse", "--short", "HEAD") + " first",
		"- Project: requirements.txt (npm)",
	}, "\n")
	if d.Snapshot != want {
		t.Errorf("snapshot:\n%s\nwant:\n%s", d.Snapshot, want)
	}
}

func TestSnapshotBranchForms(t *testing.T) {
	e := newEnv(t)
	e.make("up/a.py")
	e.commit("up")
	e.git("", "clone", "-q", e.path("up"), e.path("down"))
	e.write("down/b.py", "x\n")
	e.git("down", "add", "b.py")
	e.git("down", "commit", "-q", "-m", "second")
	e.git("down", "worktree", "add", "-q", "--detach", e.path("wt"))
	check := func(dir string, want ...string) {
		t.Helper()
		d, err := Detect(e.path(dir), "auto", "cli")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(d.Snapshot+"\n", w+"\n") {
				t.Errorf("%s: no line %q in\n%s", dir, w, d.Snapshot)
			}
		}
	}
	check("down", "- Branch: main → origin/main (ahead 1, behind 0)", "- Status: clean")
	check("up", "- Branch: main")
	check("wt", "- Branch: (detached HEAD)", "- Worktree: linked (branches and stashes are shared with the main working tree)")
	if d, _ := Detect(e.path("down"), "auto", "cli"); strings.Contains(d.Snapshot, "Worktree") {
		t.Errorf("the main tree is called linked:\n%s", d.Snapshot)
	}
}

func TestSnapshotWithoutGitLeavesLinesOut(t *testing.T) {
	e := newEnv(t)
	e.make("r/main.py", "r/go.mod")
	e.commit("r")
	t.Setenv("PATH", e.path("no-bin"))
	d, err := Detect(e.path("r"), "auto", "cli")
	if err != nil {
		t.Fatal(err)
	}
	want := SnapshotHeader + "\n- Root: " + e.path("r") + "\n- Project: go.mod\n- Verify: go test ./..."
	if d.Snapshot != want {
		t.Errorf("snapshot with git missing:\n%s\nwant:\n%s", d.Snapshot, want)
	}
	if _, err := os.Stat(e.path("r/.git")); err != nil {
		t.Fatal(err)
	}
}
