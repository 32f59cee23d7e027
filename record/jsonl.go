package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
)

// jsonLine encodes v as one line of JSONL, newline included.
func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// jsonlTail describes how a JSONL file ends.
type jsonlTail struct {
	warnings       []string
	end            int64 // size of the file as read
	tornAt         int64 // offset of a torn or malformed last line, or -1
	missingNewline bool  // the last line is whole but lacks its '\n'
}

// Lines are read and decoded in batches; each batch is decoded in parallel.
const (
	batchLines = 1024
	batchBytes = 4 << 20
)

// jsonlLine is one non-blank line of a batch; its text is buf[at:at+n].
type jsonlLine struct {
	no    int
	start int64
	size  int
	whole bool
	at, n int
}

// scanJSONL decodes each non-blank line of r into a fresh T with decode and
// passes it to visit in file order, numbering lines from 1. Malformed lines
// (decode fails) are skipped with a warning; the last one is reported as
// torn. An error from visit stops the scan. What v refers to is valid until
// visit returns: decode may keep slices of the line.
func scanJSONL[T any](r io.Reader, path string, decode func([]byte, *T) error, visit func(line int, v *T) error) (jsonlTail, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	tail := jsonlTail{tornAt: -1}
	var (
		offset  int64
		lineNo  int
		pending string // warning for the last malformed line, until a later line follows
		batch   []jsonlLine
		buf     []byte
		values  []T // decoded lines of the batch, reused
		errs    []error
	)
	for eof := false; !eof; {
		batch, buf = batch[:0], buf[:0]
		for !eof && len(batch) < batchLines && len(buf) < batchBytes {
			raw, err := readLine(br)
			if err != nil && err != io.EOF {
				return tail, fmt.Errorf("reading %s: %w", path, err)
			}
			eof = err == io.EOF
			if len(raw) == 0 {
				continue
			}
			lineNo++
			l := jsonlLine{no: lineNo, start: offset, size: len(raw), whole: raw[len(raw)-1] == '\n', at: len(buf)}
			offset += int64(len(raw))
			text := bytes.TrimSpace(raw)
			if l.n = len(text); l.n > 0 {
				buf = append(buf, text...)
				batch = append(batch, l)
			}
		}
		values, errs = decodeBatch(buf, batch, decode, values, errs)
		for i, l := range batch {
			if pending != "" {
				tail.warnings = append(tail.warnings, pending)
				pending, tail.tornAt = "", -1
			}
			if errs[i] != nil {
				pending, tail.tornAt = malformed(path, l.no, l.whole, l.size, errs[i]), l.start
				continue
			}
			if err := visit(l.no, &values[i]); err != nil {
				return tail, err
			}
			tail.missingNewline = !l.whole
		}
	}
	if pending != "" {
		tail.warnings = append(tail.warnings, pending)
	}
	tail.end = offset
	return tail, nil
}

// decodeJSON is the decode of scanJSONL for a line that is one JSON value.
func decodeJSON[T any](line []byte, v *T) error { return json.Unmarshal(line, v) }

// decodeBatch decodes the lines of a batch into values and errs (reused:
// grown and cleared), spread over the available CPUs.
func decodeBatch[T any](buf []byte, lines []jsonlLine, decode func([]byte, *T) error, values []T, errs []error) ([]T, []error) {
	values, errs = slices.Grow(values[:0], len(lines))[:len(lines)], slices.Grow(errs[:0], len(lines))[:len(lines)]
	clear(values)
	clear(errs)
	workers := min(runtime.GOMAXPROCS(0), len(lines)/64+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(lines); i += workers {
				l := lines[i]
				errs[i] = decode(buf[l.at:l.at+l.n], &values[i])
			}
		})
	}
	wg.Wait()
	return values, errs
}

// readLine returns the next line, '\n' included; the bytes are valid until
// the next call.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != bufio.ErrBufferFull {
		return line, err
	}
	long := append([]byte(nil), line...)
	for err == bufio.ErrBufferFull {
		line, err = br.ReadSlice('\n')
		long = append(long, line...)
	}
	return long, err
}

// malformed words the warning for a line that does not decode.
func malformed(path string, line int, whole bool, size int, err error) string {
	if !whole {
		return fmt.Sprintf("%s:%d: skipped a torn last line (%d bytes, no newline): the write was cut off", path, line, size)
	}
	return fmt.Sprintf("%s:%d: skipped a malformed line: %v", path, line, err)
}
