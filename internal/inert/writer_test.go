package inert

import (
	"bytes"
	"fmt"
	"testing"
)

// TestWriterEscapesEveryWrite: whatever is printed through a Writer comes
// out as Text would give it, lines kept, and Raw finds the writer beneath.
func TestWriterEscapesEveryWrite(t *testing.T) {
	var b bytes.Buffer
	w := Writer{W: &b}
	n, err := fmt.Fprintf(w, "stopped: %s\n", "HTTP 400: \x1b[2J\r\u009bgone\u202e")
	if err != nil || n != len("stopped: HTTP 400: \x1b[2J\r\u009bgone\u202e\n") {
		t.Fatalf("Fprintf: %d, %v", n, err)
	}
	if got, want := b.String(), `stopped: HTTP 400: \x1b[2J\r\u009bgone\u202e`+"\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	if _, ok := controlFree(b.String(), true); !ok {
		t.Errorf("a control byte got through: %q", b.String())
	}
	if Raw(w) != &b || Raw(&b) != &b {
		t.Error("Raw does not find the writer beneath")
	}
}
