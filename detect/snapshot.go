package detect

import (
	"fmt"
	"path/filepath"
	"strings"
)

// SnapshotHeader is the first line of every workspace snapshot.
const SnapshotHeader = "Workspace snapshot, taken when the session started (confirm with `git` before relying on it):"

// maxManifests is how many manifests the Project line names.
const maxManifests = 6

// snapshot describes the workspace at root: its git state when gitRepo is
// true (each git line left out when git fails), then the project facts. The
// lines come in the order docs/DETECTOR.md gives.
func snapshot(root string, gitRepo bool, g gitRunner) string {
	lines := []string{SnapshotHeader, "- Root: " + root}
	if gitRepo {
		lines = append(lines, gitLines(root, g)...)
	}
	f := projectFacts(root)
	if len(f.manifests) > 0 {
		m := f.manifests
		if len(m) > maxManifests {
			m = m[:maxManifests]
		}
		line := "- Project: " + strings.Join(m, ", ")
		if len(f.managers) > 0 {
			line += " (" + strings.Join(f.managers, "/") + ")"
		}
		lines = append(lines, line)
	}
	if len(f.verify) > 0 {
		lines = append(lines, "- Verify: "+strings.Join(f.verify, "; "))
	}
	if len(f.context) > 0 {
		lines = append(lines, "- Context files: "+strings.Join(f.context, ", "))
	}
	return strings.Join(lines, "\n")
}

// gitLines gives the Branch, Worktree, Status and Recent commits lines.
func gitLines(root string, g gitRunner) []string {
	var lines []string
	porcelain, statusErr := g.run(root, "--no-optional-locks", "status", "--porcelain=2", "--branch")
	st := parseStatus(porcelain)
	if statusErr == nil {
		if b := st.branchLine(); b != "" {
			lines = append(lines, b)
		}
	}
	if linkedWorktree(root, g) {
		lines = append(lines, "- Worktree: linked (branches and stashes are shared with the main working tree)")
	}
	if statusErr == nil {
		lines = append(lines, st.statusLine())
	}
	if log, err := g.run(root, "log", "-3", "--pretty=%h %s"); err == nil && log != "" {
		lines = append(lines, "- Recent commits:")
		for _, c := range strings.Split(log, "\n") {
			lines = append(lines, "    "+c)
		}
	}
	return lines
}

// linkedWorktree reports whether root is a linked worktree: its git dir
// differs from the common one.
func linkedWorktree(root string, g gitRunner) bool {
	gitDir, err1 := g.run(root, "rev-parse", "--git-dir")
	common, err2 := g.run(root, "rev-parse", "--git-common-dir")
	if err1 != nil || err2 != nil || gitDir == "" || common == "" {
		return false
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		return resolve(p)
	}
	return abs(gitDir) != abs(common)
}

// gitStatus is what `git status --porcelain=2 --branch` says.
type gitStatus struct {
	head, upstream, ahead, behind         string
	staged, modified, untracked, conflict int
}

// parseStatus reads porcelain v2 output with branch headers.
func parseStatus(out string) gitStatus {
	s := gitStatus{ahead: "0", behind: "0"}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "# branch.head ") && len(f) >= 3:
			s.head = strings.Join(f[2:], " ")
		case strings.HasPrefix(line, "# branch.upstream ") && len(f) >= 3:
			s.upstream = f[2]
		case strings.HasPrefix(line, "# branch.ab ") && len(f) >= 4:
			s.ahead, s.behind = strings.TrimPrefix(f[2], "+"), strings.TrimPrefix(f[3], "-")
		case (strings.HasPrefix(line, "1 ") || strings.HasPrefix(line, "2 ")) && len(f) >= 2 && len(f[1]) == 2:
			if f[1][0] != '.' {
				s.staged++
			}
			if f[1][1] != '.' {
				s.modified++
			}
		case strings.HasPrefix(line, "u "):
			s.conflict++
		case strings.HasPrefix(line, "? "):
			s.untracked++
		}
	}
	return s
}

// branchLine is "- Branch: <head>[ → <upstream>][ (ahead A, behind B)]",
// "- Branch: (detached HEAD)", or "" when git named no branch.
func (s gitStatus) branchLine() string {
	switch s.head {
	case "":
		return ""
	case "(detached)":
		return "- Branch: (detached HEAD)"
	}
	line := "- Branch: " + s.head
	if s.upstream != "" {
		line += " → " + s.upstream
		if s.ahead != "0" || s.behind != "0" {
			line += fmt.Sprintf(" (ahead %s, behind %s)", s.ahead, s.behind)
		}
	}
	return line
}

// statusLine lists the non-zero counts, or says clean.
func (s gitStatus) statusLine() string {
	var parts []string
	for _, c := range []struct {
		n     int
		label string
	}{{s.staged, "staged"}, {s.modified, "modified"}, {s.untracked, "untracked"}, {s.conflict, "conflicts"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.label))
		}
	}
	if len(parts) == 0 {
		return "- Status: clean"
	}
	return "- Status: " + strings.Join(parts, ", ")
}
