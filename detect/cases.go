package detect

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// layout is how a case's directory is built.
type layout int

const (
	loneCopy   layout = iota // the parse_date repo files alone in an empty folder
	inPlace                  // the same files three levels below a project root holding requirements.txt
	loneGit                  // the lone copy, committed to a fresh git repository
	loneAgents               // the lone copy plus an AGENTS.md
	notesGit                 // a folder holding only notes.md, committed to a fresh git repository
)

// Case is one of the lesson's nine directory cases.
type Case struct {
	N        int
	Name     string
	Platform string
	Mode     string
	layout   layout
}

// Cases are the lesson's nine directory cases (docs/DETECTOR.md), in order.
var Cases = []Case{
	{1, "lone copy in an empty directory", "cli", "auto", loneCopy},
	{2, "in place, requirements.txt three levels up", "cli", "auto", inPlace},
	{3, "lone copy after git init", "cli", "auto", loneGit},
	{4, "lone copy plus AGENTS.md, no git", "cli", "auto", loneAgents},
	{5, "lone copy, session from telegram", "telegram", "auto", loneCopy},
	{6, "notes.md only, after git init", "cli", "auto", notesGit},
	{7, "lone copy after git init, focus", "cli", "focus", loneGit},
	{8, "lone copy, no git, mode on", "cli", "on", loneCopy},
	{9, "lone copy plus AGENTS.md, mode off", "cli", "off", loneAgents},
}

// Placeholders that stand for the replay's temporary paths in its output.
const (
	ProjectPlaceholder = "<project>" // the in-place case's project root
	RepoPlaceholder    = "<repo>"    // every other case's directory
)

// inPlaceDepth is the path from the project root to the task files.
var inPlaceDepth = []string{"course", "tasks", "parse_date"}

// CaseResult is one replayed case: its number, name and the decision, with
// temporary paths replaced by placeholders.
type CaseResult struct {
	Case int    `json:"case"`
	Name string `json:"name"`
	Decision
}

// Replay builds each of the nine cases in a fresh temporary folder, runs
// the detector (and the naive rule) on it and removes the folders again.
// lone holds the parse_date repo/ files. Git runs with a scrubbed
// environment, a fixed identity and fixed dates, so the output is the same
// on every machine.
func Replay(lone fs.FS) ([]CaseResult, error) {
	base, err := os.MkdirTemp("", "bench-detect-")
	if err != nil {
		return nil, fmt.Errorf("detect replay: %w", err)
	}
	defer os.RemoveAll(base)
	base = resolve(base)
	p := currentPlaces()
	if err := isolated(base, p); err != nil {
		return nil, err
	}
	g := replayGit(base)
	d := detector{places: p, git: g}
	results := make([]CaseResult, 0, len(Cases))
	for _, c := range Cases {
		r, err := c.run(d, filepath.Join(base, fmt.Sprintf("case-%d", c.N)), lone)
		if err != nil {
			return nil, fmt.Errorf("detect replay, case %d (%s): %w", c.N, c.Name, err)
		}
		results = append(results, r)
	}
	return results, nil
}

// isolated checks that nothing above the replay's folder can sway the
// cases: no project marker within the walk and no git repository (other
// than one rooted at $HOME, which the rules ignore).
func isolated(base string, p places) error {
	if m := markerRoot(base, p); m != "" {
		return fmt.Errorf("detect replay: the temp folder %s lies inside a project (marker in %s); set TMPDIR to a folder outside any project", base, m)
	}
	if g := gitRoot(base); g != "" && g != p.home {
		return fmt.Errorf("detect replay: the temp folder %s lies inside the git repository %s; set TMPDIR to a folder outside any repository", base, g)
	}
	return nil
}

// run builds the case under dir, decides, and hides the temporary paths.
func (c Case) run(d detector, dir string, lone fs.FS) (CaseResult, error) {
	target, root, placeholder, err := c.build(dir, lone, d.git)
	if err != nil {
		return CaseResult{}, err
	}
	dec, err := d.detect(target, c.Mode, c.Platform)
	if err != nil {
		return CaseResult{}, err
	}
	root = resolve(root)
	hide := func(s string) string { return strings.ReplaceAll(s, root, placeholder) }
	dec.Dir, dec.Root, dec.Snapshot = hide(dec.Dir), hide(dec.Root), hide(dec.Snapshot)
	return CaseResult{Case: c.N, Name: c.Name, Decision: dec}, nil
}

// build lays the case out under dir. It returns the directory to detect,
// the path the output hides and its placeholder.
func (c Case) build(dir string, lone fs.FS, g gitRunner) (target, root, placeholder string, err error) {
	switch c.layout {
	case inPlace:
		project := filepath.Join(dir, "project")
		target = filepath.Join(append([]string{project}, inPlaceDepth...)...)
		if err := os.CopyFS(target, lone); err != nil {
			return "", "", "", err
		}
		err = writeFiles(project, map[string]string{
			"requirements.txt": "# the course project's Python dependencies\n",
			"README.md":        "# course project\n",
		})
		return target, project, ProjectPlaceholder, err
	case notesGit:
		if err := writeFiles(dir, map[string]string{"notes.md": "# notes\n\nIdeas, not code.\n"}); err != nil {
			return "", "", "", err
		}
		return dir, dir, RepoPlaceholder, commitAll(dir, g, "Add notes")
	}
	if err := os.CopyFS(dir, lone); err != nil {
		return "", "", "", err
	}
	switch c.layout {
	case loneGit:
		err = commitAll(dir, g, "Add the parse_date task")
	case loneAgents:
		err = writeFiles(dir, map[string]string{"AGENTS.md": "# Agent notes\n\nRun the tests with `python3 -m unittest`.\n"})
	}
	return dir, dir, RepoPlaceholder, err
}

func writeFiles(dir string, files map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// replayDate is the author and committer date of every replay commit.
const replayDate = "2025-01-01T00:00:00+00:00"

// replayGit runs git with nothing from the machine's or user's git
// configuration: a scrubbed environment with a fixed identity and dates.
func replayGit(home string) gitRunner {
	return gitRunner{timeout: 10 * time.Second, env: []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"LC_ALL=C",
		"TZ=UTC",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@localhost", "GIT_AUTHOR_DATE=" + replayDate,
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@localhost", "GIT_COMMITTER_DATE=" + replayDate,
	}}
}

// commitAll makes dir a git repository on branch main and commits
// everything in it.
func commitAll(dir string, g gitRunner, message string) error {
	for _, args := range [][]string{
		{"init", "-q", "--initial-branch=main"},
		{"add", "-A"},
		{"commit", "-q", "--no-gpg-sign", "-m", message},
	} {
		if _, err := g.run(dir, args...); err != nil {
			return fmt.Errorf("git %s in %s: %w", strings.Join(args, " "), dir, err)
		}
	}
	return nil
}
