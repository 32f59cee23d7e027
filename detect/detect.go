package detect

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CodingToolset is the toolset focus mode narrows to.
const CodingToolset = "coding"

// DemotedCategories are the non-coding skill categories that focus mode
// demotes to names only (never hides).
var DemotedCategories = []string{
	"apple", "communication", "cooking", "creative", "email", "finance",
	"gaming", "gifs", "health", "media", "music", "note-taking",
	"productivity", "shopping", "smart-home", "social-media", "travel", "yuanbao",
}

// Decision is the detector's verdict on one directory.
type Decision struct {
	Dir          string   `json:"dir"`           // the directory, absolute, symlinks resolved
	Mode         string   `json:"mode"`          // normalised: auto, focus, on or off
	Platform     string   `json:"platform"`      // trimmed and lower-cased
	Profile      string   `json:"profile"`       // coding or general
	NaiveProfile string   `json:"naive_profile"` // what "a .git means coding" would say
	Root         string   `json:"root"`          // the snapshot root; "" when none or general
	Guidance     bool     `json:"guidance"`      // whether the coding guidance is injected
	Snapshot     string   `json:"snapshot"`      // the workspace snapshot; "" when none
	Toolset      []string `json:"toolset"`       // focus only: the narrowed toolset, else nil
	Demoted      []string `json:"demoted"`       // focus only: demoted skill categories, else nil
}

// Coding reports whether the decision is the coding profile.
func (d Decision) Coding() bool { return d.Profile == ProfileCoding }

// detector holds what Detect reads besides the directory: the two special
// places and the way git is run.
type detector struct {
	places places
	git    gitRunner
}

// Detect decides the profile for dir (the current directory when "") under
// mode and platform, and builds the snapshot when the profile is coding. It
// fails only when dir cannot be resolved to a directory.
func Detect(dir, mode, platform string) (Decision, error) {
	return detector{places: currentPlaces(), git: defaultGit()}.detect(dir, mode, platform)
}

func (d detector) detect(dir, mode, platform string) (Decision, error) {
	resolved, err := resolveDir(dir)
	if err != nil {
		return Decision{}, err
	}
	dec := Decision{
		Dir:          resolved,
		Mode:         NormalizeMode(mode),
		Platform:     NormalizePlatform(platform),
		NaiveProfile: naiveProfile(resolved),
	}
	dec.Profile = d.profile(dec.Mode, dec.Platform, resolved)
	if !dec.Coding() {
		return dec, nil
	}
	dec.Guidance = true
	// The root is the git root if there is one (even $HOME, as in Hermes),
	// else the marker root.
	git := gitRoot(resolved)
	dec.Root = git
	if dec.Root == "" {
		dec.Root = markerRoot(resolved, d.places)
	}
	if dec.Root != "" {
		dec.Snapshot = snapshot(dec.Root, git != "", d.git)
	}
	if dec.Mode == ModeFocus {
		dec.Toolset = []string{CodingToolset}
		dec.Demoted = append([]string(nil), DemotedCategories...)
	}
	return dec, nil
}

// profile applies the rules of docs/DETECTOR.md in order.
func (d detector) profile(mode, platform, dir string) string {
	switch {
	case mode == ModeOff:
		return ProfileGeneral
	case mode == ModeOn:
		return ProfileCoding
	case !Interactive(platform):
		return ProfileGeneral
	case markerRoot(dir, d.places) != "":
		return ProfileCoding
	}
	root := gitRoot(dir)
	if root != "" && root != d.places.home && hasCodeFiles(root).found {
		return ProfileCoding
	}
	return ProfileGeneral
}

// resolveDir makes dir absolute with its symlinks resolved and checks that
// it is a directory.
func resolveDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("detect: directory %q: %w", dir, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("detect: directory %s does not exist", abs)
	}
	if err != nil {
		return "", fmt.Errorf("detect: directory %s: %w", abs, err)
	}
	fi, err := os.Stat(resolved)
	if err != nil {
		return "", fmt.Errorf("detect: directory %s: %w", resolved, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("detect: %s is a file, not a directory", resolved)
	}
	return resolved, nil
}
