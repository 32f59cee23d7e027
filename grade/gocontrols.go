package grade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	mrand "math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"bench/tasks"
)

// goTest is one test function of a Go test file.
type goTest struct {
	decl  *ast.FuncDecl
	t     string // the name of its *testing.T parameter
	skips bool   // it may call t.Skip
}

// goFile is a parsed Go test file of the task.
type goFile struct {
	rel     string // slash-separated, relative to the workspace
	src     []byte
	fset    *token.FileSet
	ast     *ast.File
	testing string // the name the file imports "testing" under
	tests   []goTest
}

// parseGoTests parses the task's pristine *_test.go files.
func parseGoTests(t tasks.Task) ([]*goFile, error) {
	var out []*goFile
	for _, rel := range t.TestFiles {
		if !strings.HasSuffix(rel, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, rel))
		if err != nil {
			return nil, err
		}
		f := &goFile{rel: rel, src: src, fset: token.NewFileSet()}
		if f.ast, err = parser.ParseFile(f.fset, rel, src, parser.SkipObjectResolution); err != nil {
			return nil, fmt.Errorf("parsing %s for grading's controls: %w", rel, err)
		}
		for _, imp := range f.ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "testing" {
				f.testing = "testing"
				if imp.Name != nil {
					f.testing = imp.Name.Name
				}
			}
		}
		for _, d := range f.ast.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && f.testing != "" {
				if tp := testParam(fn, f.testing); tp != "" {
					f.tests = append(f.tests, goTest{decl: fn, t: tp, skips: mentions(fn.Body, "Skip")})
				}
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// testParam is the name of fn's *testing.T parameter when fn is a test
// function (func TestXxx(t *testing.T)), else "".
func testParam(fn *ast.FuncDecl, testing string) string {
	if fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Type.Results != nil ||
		len(fn.Type.Params.List) != 1 || len(fn.Type.Params.List[0].Names) != 1 {
		return ""
	}
	if rest := fn.Name.Name[len("Test"):]; rest != "" && strings.ToLower(rest[:1]) == rest[:1] && strings.ToUpper(rest[:1]) != rest[:1] {
		return ""
	}
	star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return ""
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "T" {
		return ""
	}
	if x, ok := sel.X.(*ast.Ident); !ok || x.Name != testing {
		return ""
	}
	return fn.Type.Params.List[0].Names[0].Name
}

// mentions reports whether a selector or identifier under n starts with
// word (t.Skip, t.SkipNow, t.Skipf).
func mentions(n ast.Node, word string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, word) {
			found = true
		}
		return !found
	})
	return found
}

// planGo draws the plan of one Go grading and writes the sealed test files
// into ws: every test function renamed, beside each one a control (in
// random order), and in every test package a test that fails
// unconditionally.
func planGo(t tasks.Task, ws string) (*plan, error) {
	p := newPlan(t.Tests)
	if !controlsOn.Load() {
		p.lenient = true
		return p, nil
	}
	files, err := parseGoTests(t)
	if err != nil {
		return nil, err
	}
	r := newRand()
	for _, f := range files {
		for _, tt := range f.tests {
			p.skip[tt.decl.Name.Name] = p.skip[tt.decl.Name.Name] || tt.skips
			if s, ok := p.sealed[tt.decl.Name.Name]; !ok || s == tt.decl.Name.Name {
				p.add(tt.decl.Name.Name, goName(r))
			}
		}
	}
	failIn := map[string]string{} // package folder → the test file that gets its fail control
	for _, i := range r.Perm(len(files)) {
		if dir := path.Dir(files[i].rel); failIn[dir] == "" && len(files[i].tests) > 0 {
			failIn[dir] = files[i].rel
		}
	}
	for _, f := range files {
		out := renderGo(f, p, r, failIn[path.Dir(f.rel)] == f.rel)
		if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(f.rel)), []byte(out), 0o644); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// goName is a fresh test function name.
func goName(r *mrand.Rand) string {
	return "Test" + strings.ToUpper(letters(r, 1)) + letters(r, 11)
}

// renderGo is one sealed Go test file: every test function renamed (and
// every use of its name in the file), a control beside each one, and with
// fail a test that fails unconditionally at the end.
func renderGo(f *goFile, p *plan, r *mrand.Rand, fail bool) string {
	s := &source{text: string(f.src)}
	off := func(pos token.Pos) int { return f.fset.Position(pos).Offset }
	var renames []edit
	ast.Inspect(f.ast, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			ast.Inspect(sel.X, func(n ast.Node) bool { return visitIdent(n, p, off, &renames) })
			return false
		}
		return visitIdent(n, p, off, &renames)
	})
	renames = sortedEdits(renames)
	var b strings.Builder
	at := 0
	for _, tt := range f.tests {
		from, to := off(tt.decl.Pos()), off(tt.decl.End())
		if tt.decl.Doc != nil {
			from = off(tt.decl.Doc.Pos())
		}
		b.WriteString(s.apply(at, from, renames))
		orig := s.apply(from, to, renames)
		if twin, ok := goTwin(s, f, tt, from, to, renames, p, r, off); ok {
			if r.IntN(2) == 0 {
				orig += "\n\n" + twin
			} else {
				orig = twin + "\n\n" + orig
			}
		}
		b.WriteString(orig)
		at = to
	}
	b.WriteString(s.apply(at, len(s.text), renames))
	if fail {
		name := goName(r)
		p.controls[name] = control{kind: kindFail}
		fmt.Fprintf(&b, "\nfunc %s(t *%s.T) {\n\tt.Error(%q)\n}\n", name, f.testing, letters(r, 16))
	}
	return b.String()
}

// visitIdent adds a rename of an identifier that names a task test.
func visitIdent(n ast.Node, p *plan, off func(token.Pos) int, renames *[]edit) bool {
	if id, ok := n.(*ast.Ident); ok {
		if sealed, ok := p.sealed[id.Name]; ok && sealed != id.Name {
			*renames = append(*renames, edit{off(id.Pos()), off(id.End()), sealed})
		}
	}
	return true
}

// goTwin is the control of test tt: a copy under a fresh name whose first
// check (an if statement that reports an error, at the top of the body or
// in a loop over a literal) has its expected string or float replaced, or
// its condition reversed; without one, a copy that reports an error when
// it returns. A test that may skip or returns early has none.
func goTwin(s *source, f *goFile, tt goTest, from, to int, renames []edit, p *plan, r *mrand.Rand, off func(token.Pos) int) (string, bool) {
	if tt.skips || returns(tt.decl.Body) {
		return "", false
	}
	twin := goName(r)
	name := off(tt.decl.Name.Pos())
	edits := []edit{{name, off(tt.decl.Name.End()), twin}}
	for _, e := range within(renames, from, to) {
		if e.from != name {
			edits = append(edits, e)
		}
	}
	kind := kindTail
	if cond := firstCheck(tt.decl.Body, tt.t); cond != nil {
		if lit := expectedLiteral(cond); lit != nil {
			edits = append(edits, edit{off(lit.Pos()), off(lit.End()), goValue(lit, r)})
			kind = kindValue
		} else {
			edits = append(edits, reverse(cond, off)...)
			kind = kindFlip
		}
	} else {
		at := off(tt.decl.Body.Lbrace) + 1
		edits = append(edits, edit{at, at, fmt.Sprintf("\n\tdefer %s.Error(%q)", tt.t, letters(r, 16))})
	}
	p.controls[twin] = control{of: tt.decl.Name.Name, kind: kind}
	return s.apply(from, to, sortedEdits(edits)), true
}

// returns reports whether body holds a return statement outside function
// literals.
func returns(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt:
			if b, ok := n.(*ast.BranchStmt); !ok || b.Tok == token.GOTO {
				found = true
			}
		}
		return !found
	})
	return found
}

// firstCheck is the condition of the first check of body: a top-level if
// statement (or one at the top of a loop over a non-empty composite
// literal) whose block reports an error through t.
func firstCheck(body *ast.BlockStmt, t string) ast.Expr {
	for _, st := range body.List {
		switch st := st.(type) {
		case *ast.IfStmt:
			if reports(st.Body, t) {
				return st.Cond
			}
		case *ast.RangeStmt:
			if lit, ok := st.X.(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
				for _, inner := range st.Body.List {
					if is, ok := inner.(*ast.IfStmt); ok && reports(is.Body, t) {
						return is.Cond
					}
				}
			}
		}
	}
	return nil
}

// reports reports whether block calls t.Error, Errorf, Fatal, Fatalf,
// Fail or FailNow as one of its statements.
func reports(block *ast.BlockStmt, t string) bool {
	for _, st := range block.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == t && slices.Contains([]string{"Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"}, sel.Sel.Name) {
			return true
		}
	}
	return false
}

// expectedLiteral is a string or float literal that cond compares with
// != (through || and parentheses): replaced by one no implementation
// returns, the check then fails for any code.
func expectedLiteral(cond ast.Expr) *ast.BasicLit {
	switch c := cond.(type) {
	case *ast.ParenExpr:
		return expectedLiteral(c.X)
	case *ast.BinaryExpr:
		if c.Op == token.LOR {
			if lit := expectedLiteral(c.X); lit != nil {
				return lit
			}
			return expectedLiteral(c.Y)
		}
		if c.Op != token.NEQ {
			return nil
		}
		for _, side := range []ast.Expr{c.Y, c.X} {
			if lit, ok := side.(*ast.BasicLit); ok && (lit.Kind == token.STRING || lit.Kind == token.FLOAT) {
				return lit
			}
		}
	}
	return nil
}

// goValue is a literal of lit's kind that no implementation returns.
func goValue(lit *ast.BasicLit, r *mrand.Rand) string {
	if lit.Kind == token.FLOAT {
		return fmt.Sprintf("%d.%d", randomInt(r), 1+r.IntN(9))
	}
	return strconv.Quote(letters(r, 16))
}

// opposite is the comparison that is false exactly when op is true.
var opposite = map[token.Token]string{token.EQL: "!=", token.NEQ: "==", token.LSS: ">=", token.GEQ: "<", token.GTR: "<=", token.LEQ: ">"}

// reverse edits cond into its negation: a comparison's opposite, a
// negation without its !, anything else in !( ).
func reverse(cond ast.Expr, off func(token.Pos) int) []edit {
	switch c := cond.(type) {
	case *ast.BinaryExpr:
		if op, ok := opposite[c.Op]; ok {
			at := off(c.OpPos)
			return []edit{{at, at + len(c.Op.String()), op}}
		}
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			at := off(c.OpPos)
			return []edit{{at, at + 1, ""}}
		}
	}
	return []edit{{off(cond.Pos()), off(cond.Pos()), "!("}, {off(cond.End()), off(cond.End()), ")"}}
}
