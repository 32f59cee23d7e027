package tasks

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"strconv"
)

// Checksum returns "sha256:<hex>" over the sorted paths and bytes of the
// task folder, so a run can record exactly which version of a task it used
// and the oracle can prove the folder was left untouched.
func (t Task) Checksum() (string, error) {
	if t.FS == nil {
		return "", fmt.Errorf("task %s has no folder to checksum", t.Name)
	}
	h := sha256.New()
	err := fs.WalkDir(t.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(t.FS, p)
		if err != nil {
			return err
		}
		// Length-prefix each part so that no two layouts hash alike.
		io.WriteString(h, strconv.Itoa(len(p))+":"+p+"\x00"+strconv.Itoa(len(data))+":")
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("checksum of task %s: %w", t.Name, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
