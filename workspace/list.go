package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// List returns the files under the directory rel, recursively, as
// slash-separated paths relative to the workspace, in lexical order;
// __pycache__ folders are left out and symbolic links are listed, not
// followed. It checks ctx as it goes. Past MaxListEntries names it stops and
// returns those with an error wrapping ErrTooMany.
func (w *Root) List(ctx context.Context, rel string) ([]string, error) {
	clean, err := Clean(rel)
	if err != nil {
		return nil, err
	}
	var names []string
	full := false
	err = fs.WalkDir(w.root.FS(), clean, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "__pycache__" {
			return fs.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		if len(names) == MaxListEntries {
			full = true
			return fs.SkipAll
		}
		names = append(names, p)
		return nil
	})
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return nil, err
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no such directory: %s", rel)
	case err != nil:
		return nil, fileError(rel, err)
	case full:
		return names, fmt.Errorf("%s holds more than %d files; only the first %d are listed: %w", rel, MaxListEntries, MaxListEntries, ErrTooMany)
	}
	return names, nil
}
