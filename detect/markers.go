package detect

import "path/filepath"

// Markers are the names that make a directory a project root. Any existing
// path of one of these names counts, a directory included.
var Markers = []string{
	"pyproject.toml", "setup.py", "setup.cfg", "requirements.txt",
	"package.json", "tsconfig.json", "deno.json",
	"Cargo.toml", "go.mod", "pom.xml", "build.gradle", "build.gradle.kts",
	"Gemfile", "composer.json", "mix.exs", "pubspec.yaml",
	"CMakeLists.txt", "Makefile", "Dockerfile",
	"AGENTS.md", "CLAUDE.md", ".cursorrules",
}

// ContextFiles are the markers that carry instructions for an agent; the
// snapshot lists them apart from the manifests.
var ContextFiles = []string{"AGENTS.md", "CLAUDE.md", ".cursorrules"}

// MarkerWalk is how many directories the marker walk looks at: the
// directory itself and six parents. Skipped directories count too.
const MarkerWalk = 7

// markerRoot returns the nearest of the first MarkerWalk directories from
// dir upwards that holds a marker, or "". $HOME and the temp root are
// skipped: a Makefile in the home directory or a stray manifest in /tmp
// must not turn every directory below them into a project.
func markerRoot(dir string, p places) string {
	for i, d := range ancestors(dir) {
		if i == MarkerWalk {
			break
		}
		if d == p.home || d == p.temp {
			continue
		}
		if hasMarker(d) {
			return d
		}
	}
	return ""
}

// hasMarker reports whether any marker exists in dir.
func hasMarker(dir string) bool {
	for _, m := range Markers {
		if exists(filepath.Join(dir, m)) {
			return true
		}
	}
	return false
}
