package detect

import "path/filepath"

// gitRoot returns the nearest of dir and its parents (no depth limit) where
// a .git exists — a folder, or a file as in a linked worktree or submodule —
// or "".
func gitRoot(dir string) string {
	for _, d := range ancestors(dir) {
		if exists(filepath.Join(d, ".git")) {
			return d
		}
	}
	return ""
}

// naiveProfile is the rule a first design would use: the directory itself
// holds a .git, so it is coding.
func naiveProfile(dir string) string {
	if exists(filepath.Join(dir, ".git")) {
		return ProfileCoding
	}
	return ProfileGeneral
}
