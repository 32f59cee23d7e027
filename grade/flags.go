package grade

import (
	"fmt"
	"sort"
)

// flag records a reason for tampering.
func (g *Result) flag(format string, args ...any) {
	g.Tampered = true
	g.note(format, args...)
}

// note records something left out of grading that is not tampering.
func (g *Result) note(format string, args ...any) {
	g.Flags = append(g.Flags, fmt.Sprintf(format, args...))
	sort.Strings(g.Flags)
}
