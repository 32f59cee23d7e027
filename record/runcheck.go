package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"bench/lesson"
)

// parseRun decodes the bytes of a run.json and checks them (Run.Check).
// Every error is one sentence naming the field at fault; no input panics.
func parseRun(b []byte) (Run, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return Run{}, errors.New("the file is empty: not a run description")
	}
	if trimmed[0] != '{' {
		return Run{}, errors.New("not a JSON object (a run description is one object of fields)")
	}
	var run Run
	if err := json.Unmarshal(trimmed, &run); err != nil {
		return Run{}, decodeError(trimmed, err)
	}
	if err := run.Check(); err != nil {
		return Run{}, err
	}
	return run, nil
}

// decodeError words a decoding error of run.json: where the JSON breaks, or
// which field holds a value of the wrong type.
func decodeError(b []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var when *time.ParseError
	switch {
	case errors.As(err, &when):
		return fmt.Errorf("field \"started\" is %s: want an RFC 3339 time such as 2026-11-29T22:00:00Z", strconv.Quote(when.Value))
	case errors.As(err, &syntax):
		line := 1 + bytes.Count(b[:min(int(syntax.Offset), len(b))], []byte("\n"))
		return fmt.Errorf("not valid JSON (line %d): %v", line, syntax)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("field %q holds a JSON %s where %s belongs", typ.Field, typ.Value, kindOf(typ.Type.Kind().String()))
	case errors.As(err, &typ):
		return fmt.Errorf("a JSON %s, not an object of fields", typ.Value)
	}
	return fmt.Errorf("not a valid run description: %v", err)
}

// kindOf names a Go kind as a JSON reader would: "a number", "a list".
func kindOf(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"):
		return "a whole number"
	case strings.HasPrefix(kind, "float"):
		return "a number"
	case kind == "slice" || kind == "array":
		return "a list"
	case kind == "struct" || kind == "map" || kind == "ptr":
		return "an object"
	case kind == "bool":
		return "true or false"
	}
	return "a " + kind
}

// Check reports the first thing in r that no run bench writes can hold,
// naming its field: a format it does not know, no task, track or seed, an
// empty or repeated name, a name that cannot be a folder of trajectories,
// a negative count or limit, a shard outside its count. Readers call it on
// every run.json they read, so that nothing downstream meets such a run.
func (r Run) Check() error {
	if r.Format < 1 {
		return fmt.Errorf("no \"format\" field (want %d): not written by bench", FormatVersion)
	}
	if r.Format > FormatVersion {
		return fmt.Errorf("format %d is newer than this bench reads (%d): upgrade bench to read it", r.Format, FormatVersion)
	}
	checks := []func() error{r.checkUID, r.checkTasks, r.checkTracks, r.checkSeeds, r.checkModels, r.checkNumbers, r.checkShard}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checkUID checks the run's identity, when it records one.
func (r Run) checkUID() error {
	if err := CheckUID(r.UID); err != nil {
		return fmt.Errorf("field \"uid\" %w", err)
	}
	return nil
}

// CheckUID checks a run identity as run.json may hold it: "" (none, for
// readers to derive one) or up to 128 printable characters without a space.
func CheckUID(uid string) error {
	if uid != "" && (len(uid) > maxUID || !printableName(uid) || strings.ContainsRune(uid, ' ')) {
		return fmt.Errorf("is %s: want up to %d printable characters, no space", strconv.Quote(uid), maxUID)
	}
	return nil
}

// maxUID is the longest run uid a reader accepts.
const maxUID = 128

// checkTasks checks the task list: at least one task, each named once
// with a name that can be a folder, its answers three letters y or n.
func (r Run) checkTasks() error {
	if len(r.Tasks) == 0 {
		return errors.New("field \"tasks\" is empty or missing: a run has at least one task")
	}
	seen := map[string]bool{}
	for i, t := range r.Tasks {
		field := fmt.Sprintf("tasks[%d].name", i)
		if err := checkFolderName(field, t.Name); err != nil {
			return err
		}
		if seen[t.Name] {
			return fmt.Errorf("field %q names the task %s a second time", field, t.Name)
		}
		seen[t.Name] = true
		if t.Answers != "" && !canonicalAnswers(t.Answers) {
			return fmt.Errorf("field \"tasks[%d].answers\" is %s: want three letters y or n, one per question", i, strconv.Quote(t.Answers))
		}
	}
	return nil
}

// canonicalAnswers reports whether s holds a task's answers in the form
// bench writes them (lesson.Answers.String: "yyn").
func canonicalAnswers(s string) bool {
	a, err := lesson.Parse(s)
	return err == nil && a.String() == s
}

// checkTracks checks the track list: at least one, each named once.
func (r Run) checkTracks() error {
	if len(r.Tracks) == 0 {
		return errors.New("field \"tracks\" is empty or missing: a run has at least one track")
	}
	seen := map[string]bool{}
	for i, name := range r.Tracks {
		field := fmt.Sprintf("tracks[%d]", i)
		if err := checkFolderName(field, name); err != nil {
			return err
		}
		if seen[name] {
			return fmt.Errorf("field %q names the track %s a second time", field, name)
		}
		seen[name] = true
	}
	return nil
}

// checkSeeds checks the seeds: at least one, each as CheckSeed says.
func (r Run) checkSeeds() error {
	if len(r.Seeds) == 0 {
		return errors.New("field \"seeds\" is empty or missing: a run has at least one seed")
	}
	for i, s := range r.Seeds {
		if err := CheckSeed(s); err != nil {
			return fmt.Errorf("field \"seeds[%d]\": %w", i, err)
		}
	}
	return nil
}

// CheckSeed refuses a seed no run can be made with: a negative one.
// Every check of a seed (the flag's, the spec's, run.json's) asks it.
func CheckSeed(s int) error {
	if s < 0 {
		return fmt.Errorf("seed %d is negative; seeds are 0 or more (servers take -1 as \"pick a random seed\", which no run can repeat)", s)
	}
	return nil
}

// checkModels checks the model list: each model named, once.
func (r Run) checkModels() error {
	seen := map[string]bool{}
	for i, m := range r.Models {
		field := fmt.Sprintf("models[%d].name", i)
		if strings.TrimSpace(m.Name) == "" || !printableName(m.Name) {
			return fmt.Errorf("field %q is %s: want the model's name", field, strconv.Quote(m.Name))
		}
		if seen[m.Name] {
			return fmt.Errorf("field %q names the model %s a second time", field, m.Name)
		}
		seen[m.Name] = true
	}
	return nil
}

// checkNumbers checks that no whole-number setting of the table (a count
// or a limit) is negative, and that each number setting (the sampling
// options) passes its flag's check, which takes 0. run.json holds 0 for a
// setting a run left at its default or older runs did not have, so the
// stricter checks of the whole-number flags do not apply here.
func (r Run) checkNumbers() error {
	for _, d := range Table {
		if d.Source != FromTable {
			continue
		}
		switch f := reflect.ValueOf(r.RunSettings).FieldByName(d.Field); {
		case f.CanInt() && f.Int() < 0:
			return fmt.Errorf("field %q is %d: it cannot be negative", d.Key(), f.Int())
		case f.CanFloat() && d.Check != nil:
			if err := d.Check(d.Name, f.Float()); err != nil {
				return fmt.Errorf("field %q is %v: %w", d.Key(), f.Float(), err)
			}
		}
	}
	return nil
}

// checkShard checks that a shard is part i of n with 1 ≤ i ≤ n.
func (r Run) checkShard() error {
	if sh := r.Shard; sh != nil && (sh.Count < 1 || sh.Index < 1 || sh.Index > sh.Count) {
		return fmt.Errorf("field \"shard\" is part %d of %d: want 1 ≤ index ≤ count", sh.Index, sh.Count)
	}
	return nil
}

// checkFolderName checks that name, the value of field, can name a folder
// of trajectories: not empty, not "." or "..", no path separator, no
// control character.
func checkFolderName(field, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("field %q is empty: want a name", field)
	case !PlainName(name):
		return fmt.Errorf("field %q is %s: a name cannot be . or .., hold a slash or a control character", field, strconv.Quote(name))
	}
	return nil
}

// PlainName reports whether name can name a folder of its own inside a
// run folder (a task's, a track's, a model's or a variant's): not blank,
// not "." or "..", no path separator, no control or unprintable
// character. The writer, run.json's check and the replay all ask it.
func PlainName(name string) bool {
	return strings.TrimSpace(name) != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && printableName(name)
}

// printableName reports whether s is valid UTF-8 of printable characters
// (spaces allowed).
func printableName(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}
