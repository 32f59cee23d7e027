package grade

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"bench/tasks"
	"bench/testrun"
)

// analyzeScript finds, in a task's pristine unittest files, the test
// methods and the assertions that a control can change (see analyze.py).
//
//go:embed analyze.py
var analyzeScript []byte

// pyMethod is one test method as analyze.py describes it.
type pyMethod struct {
	Name     string   `json:"name"`
	Class    string   `json:"class"`
	Start    int      `json:"start"` // first line, decorators included
	End      int      `json:"end"`
	Skip     bool     `json:"skip"`
	XFail    bool     `json:"xfail"`
	DefLine  int      `json:"def_line"`
	DefCol   int      `json:"def_col"`
	Self     string   `json:"self"`
	BodyLine int      `json:"body_line"`
	Twin     bool     `json:"twin"`
	Cands    []pyCand `json:"cands"`
}

// pyCand is one assertion a control can change: a value to replace, or an
// assert method to reverse (To, or a bare assert statement).
type pyCand struct {
	Kind   string `json:"kind"`
	Span   [4]int `json:"span"` // line, column, end line, end column
	Type   string `json:"type"` // of a value: int, float, str, bytes, other
	To     string `json:"to"`
	Assert bool   `json:"assert"`
}

// pyClass is one test class.
type pyClass struct {
	Name     string `json:"name"`
	End      int    `json:"end"`
	Eligible bool   `json:"eligible"` // a fail control can go in it
	DefLine  int    `json:"def_line"`
	BodyLine int    `json:"body_line"`
}

// pyFile is analyze.py's description of one test file.
type pyFile struct {
	Methods  []pyMethod `json:"methods"`
	Classes  []pyClass  `json:"classes"`
	Refs     [][4]int   `json:"refs"` // attribute references to test methods (self.test_x)
	Unittest string     `json:"unittest"`
	Error    string     `json:"error"`
}

var analyses sync.Map // key (interpreter, test files' digest) → *pyAnalysis

type pyAnalysis struct {
	once  sync.Once
	files map[string]pyFile
	err   error
}

// analyzePython describes the task's pristine unittest files, running
// analyze.py once per process for each interpreter and set of files.
func analyzePython(ctx context.Context, t tasks.Task) (map[string]pyFile, error) {
	src := map[string]string{}
	h := sha256.New()
	for _, f := range t.TestFiles {
		if !strings.HasSuffix(f, ".py") {
			continue
		}
		b, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, f))
		if err != nil {
			return nil, err
		}
		src[f] = string(b)
		fmt.Fprintf(h, "%s\x00%d\x00%s\x00", f, len(b), b)
	}
	bin, err := exec.LookPath(t.TestCmd[0])
	if err != nil {
		return nil, fmt.Errorf("%s is needed on PATH to grade the tests, and it was not found", t.TestCmd[0])
	}
	bin = testrun.Interpreter(bin)
	h.Write(analyzeScript)
	if info, err := os.Stat(bin); err == nil {
		fmt.Fprintf(h, "%s\x00%d\x00%d", bin, info.Size(), info.ModTime().UnixNano())
	}
	key := hex.EncodeToString(h.Sum(nil))
	v, _ := analyses.LoadOrStore(key, &pyAnalysis{})
	a := v.(*pyAnalysis)
	a.once.Do(func() {
		if a.files = loadAnalysis(key); a.files == nil {
			if a.files, a.err = runAnalysis(ctx, bin, src); a.err == nil {
				storeAnalysis(key, a.files)
			}
		}
	})
	if a.err != nil {
		analyses.CompareAndDelete(key, a) // try again next time
	}
	return a.files, a.err
}

// analysisPath is where the analysis of key is kept between runs: the
// user's cache folder, beside the bytecode cache ("" without one).
func analysisPath(key string) string {
	root, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(root, "bench", "controls", key[:32]+".json")
}

// loadAnalysis reads a kept analysis, nil when there is none.
func loadAnalysis(key string) map[string]pyFile {
	p := analysisPath(key)
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	var files map[string]pyFile
	if err != nil || json.Unmarshal(data, &files) != nil {
		return nil
	}
	return files
}

// storeAnalysis keeps an analysis for later runs; failing to costs the
// next run an analysis, so errors are dropped.
func storeAnalysis(key string, files map[string]pyFile) {
	p := analysisPath(key)
	data, err := json.Marshal(files)
	if p == "" || err != nil || os.MkdirAll(filepath.Dir(p), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), p) != nil {
		os.Remove(tmp.Name())
	}
}

// runAnalysis runs analyze.py with the interpreter bin on the sources.
func runAnalysis(ctx context.Context, bin string, src map[string]string) (map[string]pyFile, error) {
	tmp, err := os.MkdirTemp("", "bench-analyze-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	script := filepath.Join(tmp, "analyze.py")
	if err := os.WriteFile(script, analyzeScript, 0o600); err != nil {
		return nil, err
	}
	in, _ := json.Marshal(map[string]any{"files": src})
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	prefix := filepath.Join(tmp, "pyc")
	if cache, err := bytecodeCache(ctx, bin); err == nil {
		prefix = filepath.Join(cache, "pyc")
	}
	cmd := exec.CommandContext(ctx, bin, "-I", "-S", "-B", "-X", "pycache_prefix="+prefix, script)
	cmd.Dir, cmd.Env = tmp, testrun.Environ(tmp)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("analysing the test files for grading's controls: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var res struct {
		Files map[string]pyFile `json:"files"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("analysing the test files for grading's controls: %w", err)
	}
	for _, f := range res.Files {
		if f.Error != "" {
			return nil, errors.New("analysing the test files for grading's controls: " + f.Error)
		}
	}
	return res.Files, nil
}

// planPython draws the plan of one Python grading and writes the sealed
// test files into ws: each task test renamed, a control beside each one
// that can have one, and a fail control per test file.
func planPython(ctx context.Context, t tasks.Task, ws string) (*plan, error) {
	p := newPlan(t.Tests)
	if !controlsOn.Load() {
		p.lenient = true
		return p, nil
	}
	files, err := analyzePython(ctx, t)
	if err != nil {
		return nil, err
	}
	r := newRand()
	for _, f := range slices.Sorted(maps.Keys(files)) {
		for _, m := range files[f].Methods {
			p.skip[m.Name] = p.skip[m.Name] || m.Skip
			p.xfail[m.Name] = p.xfail[m.Name] || m.XFail
			if _, ok := p.sealed[m.Name]; !ok || p.sealed[m.Name] == m.Name {
				p.add(m.Name, "test_"+letters(r, 12))
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		src, err := fs.ReadFile(t.FS, path.Join(tasks.Repo, f))
		if err != nil {
			return nil, err
		}
		out := renderPython(string(src), files[f], p, r)
		if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(f)), []byte(out), 0o644); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// renderPython is one sealed test file: the pristine src with its test
// methods renamed, a control beside each one that can have one (in random
// order), and a fail control at the end of one eligible class (or of a new
// class at the end of the file).
func renderPython(text string, f pyFile, p *plan, r *mrand.Rand) string {
	s := newSource(text)
	var renames []edit
	for _, ref := range f.Refs {
		from, to := s.at(ref[0], ref[1]), s.at(ref[2], ref[3])
		if sealed, ok := p.sealed[s.text[from:to]]; ok {
			renames = append(renames, edit{from, to, sealed})
		}
	}
	type region struct {
		from, to int
		text     string
	}
	var regions []region
	for _, m := range f.Methods {
		from, to := s.at(m.Start, 0), s.at(m.End+1, 0)
		name := s.nameAt(m)
		orig := sortedEdits(append(within(renames, from, to), edit{name, name + len(m.Name), p.sealed[m.Name]}))
		text := s.apply(from, to, orig)
		if m.Twin {
			if twin, ok := pyTwin(s, m, name, from, to, renames, p, r); ok {
				if r.IntN(2) == 0 {
					text += "\n" + twin
				} else {
					text = twin + "\n" + text
				}
			}
		}
		regions = append(regions, region{from, to, text})
	}
	var fail string
	for _, i := range r.Perm(len(f.Classes)) {
		c := f.Classes[i]
		if c.Eligible {
			at := s.at(c.End+1, 0)
			fail = pyFail(s.indent(c.DefLine), s.indent(c.BodyLine), p, r)
			regions = append(regions, region{at, at, "\n" + fail})
			break
		}
	}
	if fail == "" {
		base := "unittest.TestCase"
		if f.Unittest == "" {
			base = `__import__("unittest").TestCase`
		} else {
			base = f.Unittest + ".TestCase"
		}
		at := len(s.text)
		regions = append(regions, region{at, at, fmt.Sprintf("\n\nclass Test%s(%s):\n%s", strings.ToUpper(letters(r, 1))+letters(r, 11), base, pyFail("    ", "        ", p, r))})
	}
	slices.SortStableFunc(regions, func(a, b region) int { return a.from - b.from })
	var b strings.Builder
	at := 0
	for _, reg := range regions {
		b.WriteString(s.apply(at, reg.from, renames))
		b.WriteString(reg.text)
		at = reg.to
	}
	b.WriteString(s.apply(at, len(s.text), renames))
	return b.String()
}

// nameAt is the offset of the method's name on its def line.
func (s *source) nameAt(m pyMethod) int {
	at := s.at(m.DefLine, m.DefCol)
	line := s.text[at:s.at(m.DefLine+1, 0)]
	return at + strings.Index(line, m.Name)
}

// pyTwin is the control of method m (text from..to, its name at name): a
// copy under a fresh name with one candidate assertion changed (a value
// one when there is one), or with a failing assertion added at its end.
func pyTwin(s *source, m pyMethod, name, from, to int, renames []edit, p *plan, r *mrand.Rand) (string, bool) {
	twin := "test_" + letters(r, 12)
	edits := append(within(renames, from, to), edit{name, name + len(m.Name), twin})
	var values, flips []pyCand
	for _, c := range m.Cands {
		if c.Kind == kindValue {
			values = append(values, c)
		} else {
			flips = append(flips, c)
		}
	}
	kind := kindTail
	switch {
	case len(values) > 0:
		c := values[r.IntN(len(values))]
		edits = append(edits, edit{s.at(c.Span[0], c.Span[1]), s.at(c.Span[2], c.Span[3]), pyValue(c.Type, r)})
		kind = kindValue
	case len(flips) > 0:
		c := flips[r.IntN(len(flips))]
		a, b := s.at(c.Span[0], c.Span[1]), s.at(c.Span[2], c.Span[3])
		if c.Assert {
			edits = append(edits, edit{a, a, "not ("}, edit{b, b, ")"})
		} else {
			edits = append(edits, edit{a, b, c.To})
		}
		kind = kindFlip
	}
	text := s.apply(from, to, sortedEdits(edits))
	if kind == kindTail {
		text += fmt.Sprintf("%s%s.fail(%q)\n", s.indent(m.BodyLine), m.Self, letters(r, 16))
	}
	p.controls[twin] = control{of: m.Name, kind: kind}
	return text, true
}

// pyValue is a literal of the given type that no implementation returns.
func pyValue(kind string, r *mrand.Rand) string {
	switch kind {
	case "int":
		return strconv.Itoa(randomInt(r))
	case "float":
		return fmt.Sprintf("%d.%d", randomInt(r), 1+r.IntN(9))
	case "bytes":
		return "b" + strconv.Quote(letters(r, 16))
	}
	return strconv.Quote(letters(r, 16))
}

// pyFail is a test method that fails unconditionally, at the given
// indentations, added to p.
func pyFail(def, body string, p *plan, r *mrand.Rand) string {
	name := "test_" + letters(r, 12)
	p.controls[name] = control{kind: kindFail}
	return fmt.Sprintf("%sdef %s(self):\n%sself.fail(%q)\n", def, name, body, letters(r, 16))
}
