package tasks

import (
	"fmt"

	"github.com/otiai10/copy"
)

// CopyDir copies the folder src of the task folder ("repo", "solution",
// "partial") into dst. Files come out writable by their owner even when the
// source is read-only (embedded files are 0444), so that a track can edit
// them; symbolic links are skipped.
func (t Task) CopyDir(src, dst string) error {
	if t.FS == nil {
		return fmt.Errorf("task %s has no folder to copy from", t.Name)
	}
	err := copy.Copy(src, dst, copy.Options{
		FS:                t.FS,
		PermissionControl: copy.AddPermission(0o200),
		OnSymlink:         func(string) copy.SymlinkAction { return copy.Skip },
	})
	if err != nil {
		return fmt.Errorf("copying %s/%s into %s: %w", t.Name, src, dst, err)
	}
	return nil
}
