package tokens

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"
)

// ReadText reads the text whose tokens bench tokens counts: the file
// name, or stdin for "" and "-". A folder, a missing file and bytes that
// are not text (NUL bytes, invalid UTF-8) are errors that say so: token
// counts of binary data mean nothing.
func ReadText(name string, stdin io.Reader) (string, error) {
	if name == "" || name == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return "", fmt.Errorf("cannot read stdin: %w", err)
		}
		return checkText("stdin", b)
	}
	info, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s does not exist; give a text file, or - to read stdin", name)
	case err == nil && info.IsDir():
		return "", fmt.Errorf("%s is a folder; give a text file, or - to read stdin", name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", name, err)
	}
	return checkText(name, b)
}

// checkText returns b as a string when it is text.
func checkText(name string, b []byte) (string, error) {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return "", fmt.Errorf("%s is not text (it holds NUL bytes or invalid UTF-8); bench tokens counts the tokens of text", name)
	}
	return string(b), nil
}
