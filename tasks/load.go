package tasks

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// ManifestName is the name of a task's manifest inside its folder.
const ManifestName = "task.toml"

// Load reads every subfolder of fsys that holds a task.toml, sorted by name.
// A malformed manifest is an error naming the file, the field and what was
// expected.
func Load(fsys fs.FS) ([]Task, error) {
	return load(fsys, "")
}

// FromDir loads the tasks in the folder dir (one subfolder per task), in the
// same format as the embedded ones; each task's Origin is dir made absolute.
func FromDir(dir string) ([]Task, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("tasks folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("tasks folder %s is not a directory", dir)
	}
	all, err := load(os.DirFS(dir), dir)
	if abs, aerr := filepath.Abs(dir); err == nil && aerr == nil {
		for i := range all {
			all[i].Origin = abs
		}
	}
	return all, err
}

// load reads the tasks of fsys; root prefixes file names in errors.
func load(fsys fs.FS, root string) ([]Task, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("reading tasks folder %s: %w", display(root, "."), err)
	}
	var all []Task
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), ManifestName)); err != nil {
			continue
		}
		sub, err := fs.Sub(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		t, err := loadTask(sub, e.Name(), display(root, e.Name()))
		if err != nil {
			return nil, err
		}
		all = append(all, t)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no tasks in %s: expected subfolders holding a %s", display(root, "."), ManifestName)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all, nil
}

// display names a path for error messages.
func display(root, name string) string {
	if root == "" {
		return name
	}
	return filepath.Join(root, filepath.FromSlash(name))
}

// manifestError is a problem with one field of one task.toml.
type manifestError struct {
	File, Field, Problem string
}

func (e *manifestError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Problem)
	}
	return fmt.Sprintf("%s: field %q: %s", e.File, e.Field, e.Problem)
}

// fields lists the keys a task.toml may hold and whether each is required.
var fields = map[string]bool{
	"name": true, "title": true, "instruction": true, "test_cmd": true,
	"source": true, "test_files": true, "timeout": true, "partial_expect": false,
	"archetype": true, "answers": true, "framework": false,
}

// loadTask reads and checks the manifest of the task folder fsys.
func loadTask(fsys fs.FS, folder, where string) (Task, error) {
	file := display(where, ManifestName)
	bad := func(field, format string, args ...any) error {
		return &manifestError{File: file, Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	raw, err := readManifest(fsys, file, bad)
	if err != nil {
		return Task{}, err
	}
	t, err := manifestFields(raw, bad)
	if err != nil {
		return Task{}, err
	}
	if err := designFields(&t, raw, bad); err != nil {
		return Task{}, err
	}
	t.FS = fsys
	if t.Framework == FrameworkGo {
		if t.FS, err = goStoredFS(fsys); err != nil {
			return Task{}, fmt.Errorf("%s: %w", display(where, "."), err)
		}
	}
	if err := checkValues(t, folder, bad); err != nil {
		return Task{}, err
	}
	if err := checkFiles(t, bad); err != nil {
		return Task{}, err
	}
	if t.Framework == FrameworkGo {
		if err := checkGoFiles(t, bad); err != nil {
			return Task{}, err
		}
	}
	tests, err := t.testNames()
	if err != nil {
		return Task{}, fmt.Errorf("%s: %w", file, err)
	}
	if len(tests) == 0 {
		return Task{}, bad("test_files", "no %s found in %s", testKind(t.Framework), strings.Join(t.TestFiles, ", "))
	}
	t.Tests = tests
	return t, nil
}

// badField builds the error for one field of a manifest.
type badField func(field, format string, args ...any) error

// readManifest parses task.toml and checks that it holds every required
// field and no unknown one.
func readManifest(fsys fs.FS, file string, bad badField) (map[string]any, error) {
	data, err := fs.ReadFile(fsys, ManifestName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: line %d: not valid TOML: %s", file, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: not valid TOML: %v", file, err)
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := fields[k]; !ok {
			return nil, bad(k, "unknown field; expected one of %s", strings.Join(knownFields(), ", "))
		}
	}
	for _, k := range knownFields() {
		if _, ok := raw[k]; !ok && fields[k] {
			return nil, bad(k, "missing; every task.toml needs it")
		}
	}
	return raw, nil
}

// manifestFields reads the fields of a parsed manifest into a Task, failing
// on the first field of the wrong type.
func manifestFields(raw map[string]any, bad badField) (Task, error) {
	var t Task
	var errs error
	str := func(key string) string {
		s, err := stringField(raw, key)
		if err != nil {
			errs = errors.Join(errs, bad(key, "%v", err))
		}
		return s
	}
	list := func(key string) []string {
		s, err := stringsField(raw, key)
		if err != nil {
			errs = errors.Join(errs, bad(key, "%v", err))
		}
		return s
	}
	t.Name = str("name")
	t.Title = str("title")
	t.Instruction = strings.TrimSpace(str("instruction"))
	t.TestCmd = list("test_cmd")
	t.Source = str("source")
	t.TestFiles = list("test_files")
	timeout := str("timeout")
	t.PartialExpect = str("partial_expect")
	if errs != nil {
		return Task{}, firstError(errs)
	}
	d, err := time.ParseDuration(timeout)
	if err != nil || d <= 0 {
		return Task{}, bad("timeout", "is %q; expected a positive duration such as \"30s\"", timeout)
	}
	t.Timeout = d
	return t, nil
}

// checkValues checks the manifest's values against each other and the
// task's folder name.
func checkValues(t Task, folder string, bad badField) error {
	switch {
	case t.Name != folder:
		return bad("name", "is %q; expected the folder's name %q", t.Name, folder)
	case strings.TrimSpace(t.Title) == "" || strings.Contains(t.Title, "\n"):
		return bad("title", "expected one non-empty line")
	case t.Instruction == "":
		return bad("instruction", "is empty; expected what the model is asked to do")
	case len(t.TestCmd) == 0 || strings.TrimSpace(t.TestCmd[0]) == "":
		return bad("test_cmd", "is empty; expected a command as a list of strings, e.g. [\"python3\", \"-m\", \"unittest\", \"-v\"]")
	case len(t.TestFiles) == 0:
		return bad("test_files", "is empty; expected at least one protected test file")
	case slices.Contains(t.TestFiles, t.Source):
		return bad("source", "%q is also a test file; expected the file the model fixes", t.Source)
	}
	return nil
}

// checkFiles checks that the files and folders the manifest names exist.
func checkFiles(t Task, bad badField) error {
	if err := checkFile(t.FS, t.Source); err != nil {
		return bad("source", "%v", err)
	}
	for _, f := range t.TestFiles {
		if err := checkFile(t.FS, f); err != nil {
			return bad("test_files", "%v", err)
		}
	}
	if err := checkDir(t.FS, Solution); err != nil {
		return bad("", "%v", err)
	}
	hasPartial := checkDir(t.FS, Partial) == nil
	switch {
	case hasPartial && t.PartialExpect == "":
		return bad("partial_expect", "missing; the task has a partial/ folder, so the text its failure must contain is needed")
	case !hasPartial && t.PartialExpect != "":
		return bad("partial_expect", "is set but the task has no partial/ folder")
	}
	return nil
}

// knownFields returns the manifest's keys, sorted.
func knownFields() []string {
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// firstError returns the first of a joined error, so that messages stay one line.
func firstError(err error) error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if errs := j.Unwrap(); len(errs) > 0 {
			return errs[0]
		}
	}
	return err
}

func stringField(raw map[string]any, key string) (string, error) {
	v, ok := raw[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("is %s; expected a string", tomlType(v))
	}
	return s, nil
}

func stringsField(raw map[string]any, key string) ([]string, error) {
	v, ok := raw[key]
	if !ok {
		return nil, nil
	}
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("is %s; expected a list of strings", tomlType(v))
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("item %d is %s; expected a list of strings", i+1, tomlType(it))
		}
		out[i] = s
	}
	return out, nil
}

// tomlType names the TOML type of a decoded value.
func tomlType(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date"
	}
	return fmt.Sprintf("a %T", v)
}

// checkFile checks that name is a clean relative path to a file in repo/.
func checkFile(fsys fs.FS, name string) error {
	if name == "" {
		return errors.New("is empty; expected a file name relative to repo/")
	}
	if !fs.ValidPath(name) {
		return fmt.Errorf("%q is not a clean relative path; expected a file name relative to repo/", name)
	}
	info, err := fs.Stat(fsys, path.Join(Repo, name))
	if err != nil {
		return fmt.Errorf("%q is not in repo/; expected a file present there", name)
	}
	if info.IsDir() {
		return fmt.Errorf("repo/%s is a folder; expected a file", name)
	}
	return nil
}

// checkDir checks that the task folder holds the folder name.
func checkDir(fsys fs.FS, name string) error {
	info, err := fs.Stat(fsys, name)
	if err != nil || !info.IsDir() {
		return fmt.Errorf("no %s/ folder; expected one next to task.toml", name)
	}
	return nil
}
