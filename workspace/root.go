package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Root is an open workspace. It is safe for use by one goroutine at a time
// per file; the os.Root beneath it is safe for concurrent use.
type Root struct {
	root *os.Root
}

// Open opens the workspace at dir.
func Open(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the workspace: %w", err)
	}
	return &Root{root: r}, nil
}

// Close releases the workspace's directory handle.
func (w *Root) Close() error { return w.root.Close() }

// ReadFile returns the content of the regular file rel, refusing anything
// else (a directory, FIFO, device or socket) at once and a file larger than
// MaxFileBytes. The file is opened with O_NONBLOCK, so that opening a FIFO
// never waits for a writer, and checked with fstat on the open descriptor,
// so that what is checked is what is read.
func (w *Root) ReadFile(rel string) ([]byte, error) {
	clean, err := Clean(rel)
	if err != nil {
		return nil, err
	}
	f, err := w.root.OpenFile(clean, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, fileError(rel, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fileError(rel, err)
	}
	if err := regular(rel, info); err != nil {
		return nil, err
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes, the most the tools read: %w", rel, MaxFileBytes, ErrTooLarge)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, fileError(rel, err)
	}
	if len(b) > MaxFileBytes { // it grew while being read
		return nil, fmt.Errorf("%s is larger than %d bytes, the most the tools read: %w", rel, MaxFileBytes, ErrTooLarge)
	}
	return b, nil
}

// regular refuses anything but a regular file, naming what it is.
func regular(rel string, info fs.FileInfo) error {
	m := info.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s is a directory, %w", rel, ErrNotRegular)
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link; give the path of the file it points to: %w", rel, ErrNotRegular)
	}
	return fmt.Errorf("%s is not a regular file (%s): the tools only read and write regular files: %w", rel, kind(m), ErrNotRegular)
}

// kind words a file type that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "type " + m.Type().String()
}

// errEscapes is the text of os.Root's error for a path that leaves the root
// (os does not export it; a test keeps this in step).
const errEscapes = "path escapes from parent"

// fileError words a file-system error with the path the model gave, never
// the workspace's absolute path, and marks refusals.
func fileError(rel string, err error) error {
	var pe *fs.PathError
	for errors.As(err, &pe) { // os.Root may nest them
		err = pe.Err
	}
	switch {
	case err.Error() == errEscapes:
		return fmt.Errorf("%s goes through a symbolic link that leads outside the workspace: %w", rel, ErrEscape)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no such file: %s", rel)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("permission denied: %s", rel)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: a part of the path is not a directory: %w", rel, ErrBadPath)
	case errors.Is(err, syscall.EISDIR):
		return fmt.Errorf("%s is a directory, %w", rel, ErrNotRegular)
	case errors.Is(err, syscall.ENAMETOOLONG):
		return fmt.Errorf("%s: name too long: %w", rel, ErrBadPath)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: too many levels of symbolic links: %w", rel, ErrEscape)
	case errors.Is(err, syscall.ENXIO):
		return fmt.Errorf("%s is not a regular file: %w", rel, ErrNotRegular)
	}
	return fmt.Errorf("%s: %v", rel, err)
}
