// Package tokens gives an offline, deterministic token estimate with
// tiktoken-go. The BPE files are embedded in the binary by the offline
// loader: nothing is downloaded at run time.
package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
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

// New returns the counter for an encoding ("" means Default). Encodings are
// loaded once per process and shared.
func New(encoding string) (*Counter, error) {
	if encoding == "" {
		encoding = Default
	}
	if encoding != CL100K && encoding != O200K {
		return nil, fmt.Errorf("unknown token encoding %q: use %s or %s", encoding, CL100K, O200K)
	}
	setLoader.Do(func() { tiktoken.SetBpeLoader(loader.NewOfflineLoader()) })
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
func (c *Counter) Count(text string) int {
	return len(c.enc.EncodeOrdinary(text))
}
