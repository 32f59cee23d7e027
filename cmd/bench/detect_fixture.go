package main

import (
	"fmt"
	"io/fs"

	"bench/tasks"
)

// parseDateRepo returns the parse_date task's repo/ files, the lone copy
// the detector replay is built from.
func parseDateRepo() (fs.FS, error) {
	sub, err := fs.Sub(tasks.Embedded(), "parse_date/repo")
	if err != nil {
		return nil, fmt.Errorf("the embedded parse_date task has no repo/ folder: %w", err)
	}
	return sub, nil
}
