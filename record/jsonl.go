package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
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

// Lines are read and decoded in batches: a goroutine reads them, each
// batch is decoded on a goroutine of its own, and the caller visits them in
// order, at most inFlight batches behind the reading.
const (
	batchLines = 1024
	batchBytes = 4 << 20
)

// inFlight is how many batches are being read, decoded or visited at once.
var inFlight = runtime.GOMAXPROCS(0) + 1

// jsonlLine is one non-blank line of a batch; its text is buf[at:at+n].
type jsonlLine struct {
	no    int
	start int64
	size  int
	whole bool
	at, n int
}

// jsonlBatch is lines read and decoded together.
type jsonlBatch[T any] struct {
	lines  []jsonlLine
	buf    []byte
	values []T // the decoded lines
	errs   []error
	end    int64 // offset after the batch
	err    error // the read error that ended the batch, or io.EOF
	done   chan struct{}
}

// scanJSONL decodes each non-blank line of r into a fresh T with decode and
// passes it to visit in file order, numbering lines from 1. Malformed lines
// (decode fails) are skipped with a warning; the last one is reported as
// torn. An error from visit stops the scan. What v refers to is valid until
// visit returns: decode may keep slices of the line. Lines are decoded on
// other goroutines (see inFlight), visited on the caller's.
func scanJSONL[T any](r io.Reader, path string, decode func([]byte, *T) error, visit func(line int, v *T) error) (jsonlTail, error) {
	batches, free, stop := readBatches(r, decode)
	defer stop()
	tail := jsonlTail{tornAt: -1}
	pending := "" // warning for the last malformed line, until a later line follows
	for b := range batches {
		<-b.done
		if b.err != nil && b.err != io.EOF {
			return tail, fmt.Errorf("reading %s: %w", path, b.err)
		}
		for i, l := range b.lines {
			if pending != "" {
				tail.warnings = append(tail.warnings, pending)
				pending, tail.tornAt = "", -1
			}
			if b.errs[i] != nil {
				pending, tail.tornAt = malformed(path, l.no, l.whole, l.size, b.errs[i]), l.start
				continue
			}
			if err := visit(l.no, &b.values[i]); err != nil {
				return tail, err
			}
			tail.missingNewline = !l.whole
		}
		tail.end = b.end
		free <- b
	}
	if pending != "" {
		tail.warnings = append(tail.warnings, pending)
	}
	return tail, nil
}

// readBatches reads r in batches on a goroutine and decodes each on a
// goroutine of its own, sending them in file order on batches (closed
// after the last). The caller gives each batch back on free once visited;
// stop ends the reading and waits for it.
func readBatches[T any](r io.Reader, decode func([]byte, *T) error) (batches <-chan *jsonlBatch[T], free chan<- *jsonlBatch[T], stop func()) {
	out := make(chan *jsonlBatch[T], inFlight)
	back := make(chan *jsonlBatch[T], inFlight)
	for range inFlight {
		back <- &jsonlBatch[T]{}
	}
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		defer close(out)
		br := bufio.NewReaderSize(r, 64<<10)
		var offset int64
		lineNo := 0
		for {
			var b *jsonlBatch[T]
			select {
			case b = <-back:
			case <-quit:
				return
			}
			b.read(br, &lineNo, &offset)
			b.done = make(chan struct{})
			go b.decode(decode)
			select {
			case out <- b:
			case <-quit:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	return out, back, func() { close(quit); <-finished }
}

// read fills b with the next lines of br, numbering them on from *lineNo
// and placing them from *offset.
func (b *jsonlBatch[T]) read(br *bufio.Reader, lineNo *int, offset *int64) {
	b.lines, b.buf, b.err = b.lines[:0], b.buf[:0], nil
	for b.err == nil && len(b.lines) < batchLines && len(b.buf) < batchBytes {
		var raw []byte
		raw, b.err = readLine(br)
		if len(raw) == 0 {
			continue
		}
		*lineNo++
		l := jsonlLine{no: *lineNo, start: *offset, size: len(raw), whole: raw[len(raw)-1] == '\n', at: len(b.buf)}
		*offset += int64(len(raw))
		text := bytes.TrimSpace(raw)
		if l.n = len(text); l.n > 0 {
			b.buf = append(b.buf, text...)
			b.lines = append(b.lines, l)
		}
	}
	b.end = *offset
}

// decode decodes the lines of b into b.values and b.errs (reused: grown
// and cleared), then closes b.done.
func (b *jsonlBatch[T]) decode(decode func([]byte, *T) error) {
	defer close(b.done)
	n := len(b.lines)
	b.values, b.errs = slices.Grow(b.values[:0], n)[:n], slices.Grow(b.errs[:0], n)[:n]
	clear(b.values)
	clear(b.errs)
	for i, l := range b.lines {
		b.errs[i] = decode(b.buf[l.at:l.at+l.n], &b.values[i])
	}
}

// decodeJSON is the decode of scanJSONL for a line that is one JSON value.
func decodeJSON[T any](line []byte, v *T) error { return json.Unmarshal(line, v) }

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
