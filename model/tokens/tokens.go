// Package tokens gives an offline, deterministic token estimate with
// tiktoken-go. The ranks of the two encodings it offers are embedded in the
// binary (see bpe.go): nothing is downloaded at run time.
package tokens

import (
	"fmt"
	"sync"
	"unicode"

	"github.com/pkoukk/tiktoken-go"
)

// Encodings bench can estimate with.
const (
	CL100K = "cl100k_base" // the default
	O200K  = "o200k_base"
)

// Default is the encoding used when none is chosen.
const Default = CL100K

var (
	setLoader sync.Once
	mu        sync.Mutex
	cache     = map[string]*Counter{}
)

// Counter counts tokens with one encoding. It is safe for concurrent use.
type Counter struct {
	name string
	enc  *tiktoken.Tiktoken
}

// Check returns an error that names the encodings when encoding is none of
// them ("" means Default).
func Check(encoding string) error {
	if encoding != "" && encoding != CL100K && encoding != O200K {
		return fmt.Errorf("unknown token encoding %q: use %s or %s", encoding, CL100K, O200K)
	}
	return nil
}

// New returns the counter for an encoding ("" means Default). Encodings are
// loaded once per process and shared.
func New(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = Default
	}
	if err := Check(encoding); err != nil {
		return nil, err
	}
	setLoader.Do(func() { tiktoken.SetBpeLoader(bpeLoader{}) })
	mu.Lock()
	defer mu.Unlock()
	if c, ok := cache[encoding]; ok {
		return c, nil
	}
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("load token encoding %s: %w", encoding, err)
	}
	c := &Counter{name: encoding, enc: enc}
	cache[encoding] = c
	return c, nil
}

// Name is the encoding's name.
func (c *Counter) Name() string { return c.name }

// Count returns the number of tokens in text, special-token text counted as
// ordinary text.
//
// The byte-pair merge takes time quadratic in the length of one
// pre-tokenised piece, so a degenerate reply (a model repeating one
// character for thousands of tokens) could stall the count for minutes.
// A run of more than maxRun bytes of only whitespace or only
// non-whitespace is therefore counted in maxRun-byte parts; text without
// such a run, all ordinary text, is counted exactly as one piece.
func (c *Counter) Count(text string) int {
	n := 0
	for _, seg := range segments(text) {
		n += len(c.enc.EncodeOrdinary(seg))
	}
	return n
}

// maxRun is the longest run of one kind (whitespace or not) that Count
// encodes in one piece.
const maxRun = 256

// segments cuts text inside every run of more than maxRun bytes of one kind
// (whitespace or not), every maxRun bytes, on character boundaries.
func segments(text string) []string {
	var out []string
	start, runStart, runSpace := 0, 0, false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if i == 0 || space != runSpace {
			runStart, runSpace = i, space
			continue
		}
		if i-runStart >= maxRun {
			out = append(out, text[start:i])
			start, runStart = i, i
		}
	}
	return append(out, text[start:])
}
