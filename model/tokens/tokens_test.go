package tokens

import (
	"strings"
	"testing"
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
