package cause

import (
	"path"
	"regexp"
	"strings"

	"bench/tasks"
)

// definition is a line of a source file that defines a name at its top
// level: an import, a function, a class or type, an assignment.
type definition struct {
	name string
	line string // the line, trimmed
}

var (
	pyImport   = regexp.MustCompile(`^import\s+(.+)$`)
	pyFrom     = regexp.MustCompile(`^from\s+\S+\s+import\s+(.+)$`)
	pyDef      = regexp.MustCompile(`^(?:async\s+)?(?:def|class)\s+(\w+)`)
	pyAssign   = regexp.MustCompile(`^(\w+)\s*(?::[^=]*)?=[^=]`)
	goDecl     = regexp.MustCompile(`^(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+)(\w+)`)
	goImport   = regexp.MustCompile(`^import\s+(?:(\w+)\s+)?"([^"]+)"`)
	goImported = regexp.MustCompile(`^\s+(?:(\w+)\s+)?"([^"]+)"`)
)

// definitions returns the top-level definitions of a source file, in
// file order: one per name a line defines.
func definitions(src, framework string) []definition {
	var out []definition
	inImports := false
	for _, raw := range strings.Split(src, "\n") {
		line := strings.TrimRight(raw, " \t\r")
		trim := strings.TrimSpace(line)
		add := func(name string) {
			if name != "" {
				out = append(out, definition{name: name, line: trim})
			}
		}
		if framework == tasks.FrameworkGo {
			switch {
			case inImports && trim == ")":
				inImports = false
			case inImports:
				if m := goImported.FindStringSubmatch(line); m != nil {
					add(goBound(m))
				}
			case trim == "import (":
				inImports = true
			case goImport.MatchString(line):
				add(goBound(goImport.FindStringSubmatch(line)))
			case goDecl.MatchString(line):
				add(goDecl.FindStringSubmatch(line)[1])
			}
			continue
		}
		switch {
		case pyImport.MatchString(line):
			for _, part := range strings.Split(pyImport.FindStringSubmatch(line)[1], ",") {
				add(boundName(part, true))
			}
		case pyFrom.MatchString(line):
			for _, part := range strings.Split(strings.Trim(pyFrom.FindStringSubmatch(line)[1], "() "), ",") {
				add(boundName(part, false))
			}
		case pyDef.MatchString(line):
			add(pyDef.FindStringSubmatch(line)[1])
		case pyAssign.MatchString(line):
			add(pyAssign.FindStringSubmatch(line)[1])
		}
	}
	return out
}

// goBound is the name a Go import binds, m being a goImport or goImported
// match: its alias, or the last element of its path.
func goBound(m []string) string {
	if m[1] != "" {
		return m[1]
	}
	return path.Base(m[2])
}

// boundName is the name an import binds: "x as y" binds y; "import a.b"
// binds a.
func boundName(part string, module bool) string {
	f := strings.Fields(part)
	switch {
	case len(f) == 3 && f[1] == "as":
		return f[2]
	case len(f) == 1 && module:
		first, _, _ := strings.Cut(f[0], ".")
		return first
	case len(f) == 1:
		return f[0]
	}
	return ""
}

// hasLine reports whether src has a line that, trimmed, is line.
func hasLine(src, line string) bool {
	for _, l := range strings.Split(src, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// missing names in failures: Python's NameError, ImportError and
// AttributeError on a module; Go's "undefined:" and missing methods.
var missingName = []*regexp.Regexp{
	regexp.MustCompile(`NameError: name '(\w+)' is not defined`),
	regexp.MustCompile(`ImportError: cannot import name '(\w+)'`),
	regexp.MustCompile(`AttributeError: module '[^']+' has no attribute '(\w+)'`),
	regexp.MustCompile(`undefined: (?:\w+\.)?(\w+)`),
	regexp.MustCompile(`has no field or method (\w+)`),
}

// missingIn returns the names a failure says are not defined.
func missingIn(f *failure) []string {
	var out []string
	for _, re := range missingName {
		for _, m := range re.FindAllStringSubmatch(f.message, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// pyImports returns the modules a Python file imports, by the first part
// of their dotted names.
func pyImports(src string) []string {
	var out []string
	for _, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		if m := pyFrom.FindStringSubmatch(line); m != nil {
			mod := strings.Fields(strings.TrimPrefix(line, "from "))[0]
			out = append(out, strings.TrimLeft(mod, "."))
			continue
		}
		if m := pyImport.FindStringSubmatch(line); m != nil {
			for _, part := range strings.Split(m[1], ",") {
				if f := strings.Fields(part); len(f) > 0 {
					out = append(out, f[0])
				}
			}
		}
	}
	return out
}

// pyModule is the module name of a Python file of the workspace:
// "pkg/mod.py" is "pkg.mod".
func pyModule(file string) string {
	return strings.ReplaceAll(strings.TrimSuffix(file, ".py"), "/", ".")
}
