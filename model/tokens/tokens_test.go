package tokens

import (
	"strings"
	"testing"
	"time"
)

func TestCountKnownStrings(t *testing.T) {
	// "hello world" is two tokens in both encodings (as OpenAI's tiktoken counts it).
	cases := []struct {
		enc, text string
		want      int
	}{
		{CL100K, "hello world", 2},
		{O200K, "hello world", 2},
		{CL100K, "", 0},
		{CL100K, "<|endoftext|>", 7}, // special-token text is ordinary text here
	}
	for _, tc := range cases {
		c, err := New(tc.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(tc.text); got != tc.want {
			t.Errorf("%s Count(%q) = %d, want %d", tc.enc, tc.text, got, tc.want)
		}
	}
}

func TestDefaultAndCache(t *testing.T) {
	a, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(CL100K)
	if a != b || a.Name() != CL100K {
		t.Fatalf("New(\"\") = %s, want the shared %s counter", a.Name(), CL100K)
	}
}

func TestUnknownEncoding(t *testing.T) {
	_, err := New("gpt2")
	if err == nil || !strings.Contains(err.Error(), "cl100k_base") {
		t.Fatalf("New(gpt2) error = %v, want one naming the supported encodings", err)
	}
}

// TestCountDegenerateText: a long run of one character, as a looping model
// writes it, is counted in well under a second (the byte-pair merge is
// quadratic in a piece's length; a megabyte in one piece takes minutes).
// The count stays close to that of the same text in parts.
func TestCountDegenerateText(t *testing.T) {
	c, err := New(CL100K)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{strings.Repeat("x", 1<<20), strings.Repeat(" ", 1<<20), strings.Repeat("=", 1<<20)} {
		done := make(chan int, 1)
		go func() { done <- c.Count(text) }()
		select {
		case n := <-done:
			if n < len(text)/256 || n > len(text) {
				t.Errorf("Count(%d × %q) = %d", len(text), text[:1], n)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("Count(%d × %q) did not finish in 20 s", len(text), text[:1])
		}
	}
}

// TestSegmentsLeaveOrdinaryTextWhole: text without a long run is one
// segment, so its count is exactly the encoder's.
func TestSegmentsLeaveOrdinaryTextWhole(t *testing.T) {
	text := strings.Repeat("def slugify(title):\n    return re.sub(r'[^a-z]+', '-', title)\n", 200)
	if got := segments(text); len(got) != 1 || got[0] != text {
		t.Errorf("ordinary text cut into %d segments", len(got))
	}
	long := "ab " + strings.Repeat("é", 300) + " cd"
	got := segments(long)
	if strings.Join(got, "") != long || len(got) != 3 {
		t.Errorf("segments of a long run: %d parts, rejoined equal %v", len(got), strings.Join(got, "") == long)
	}
}
