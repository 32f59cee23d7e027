package tasks

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"bench/internal/table"
)

// Info is one task as `bench tasks --format json` lists it.
type Info struct {
	Name      string   `json:"name"`
	Course    bool     `json:"course"` // one of the lesson's four tasks (Course)
	Title     string   `json:"title"`
	Files     []string `json:"files"` // the files of repo/, as copied into a workspace
	Tests     int      `json:"tests"`
	TestNames []string `json:"test_names"`
	Source    string   `json:"source"` // the file the workflow track sends
	TestFiles []string `json:"test_files"`
	TestCmd   []string `json:"test_cmd"`
	Timeout   string   `json:"timeout"`
	Partial   bool     `json:"partial"`
	Archetype string   `json:"archetype"`
	Answers   [3]bool  `json:"answers"` // the designed answers to lesson.Questions, in order
	Framework string   `json:"framework"`
}

// Describe is t as Info: its fields and the files of its repo/.
func Describe(t Task) (Info, error) {
	var files []string
	err := fs.WalkDir(t.FS, Repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, strings.TrimPrefix(p, "repo/"))
		}
		return nil
	})
	if err != nil {
		return Info{}, fmt.Errorf("task %s: listing repo/: %w", t.Name, err)
	}
	sort.Strings(files)
	return Info{
		Name: t.Name, Course: InCourse(t.Name), Title: t.Title, Files: files, Tests: len(t.Tests), TestNames: t.Tests,
		Source: t.Source, TestFiles: t.TestFiles, TestCmd: t.TestCmd, Timeout: t.Timeout.String(),
		Partial: t.PartialExpect != "", Archetype: t.Archetype, Answers: t.Answers.List(), Framework: t.Framework,
	}, nil
}

// WriteListing writes the tasks in format, one of table.Formats: a table
// of each task's design, or, in JSON, each task's Info.
func WriteListing(w io.Writer, format string, all []Task) error {
	if format == table.JSON {
		infos := make([]Info, 0, len(all))
		for _, t := range all {
			info, err := Describe(t)
			if err != nil {
				return err
			}
			infos = append(infos, info)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	rows := make([][]string, len(all))
	for i, t := range all {
		course := ""
		if InCourse(t.Name) {
			course = "yes"
		}
		rows[i] = []string{t.Name, course, t.Framework, t.Archetype, t.Answers.String(), strconv.Itoa(len(t.Tests)), t.Source, t.Title}
	}
	return table.Write(w, format, []string{"task", "course", "framework", "archetype", "answers", "tests", "source", "title"}, rows)
}
