package inert

import "io"

// Writer is an io.Writer that passes everything written to it through
// Text before it reaches W: the writer a command prints through, so that
// no text it quotes (a server's words, a model's file names, a test's
// output) reaches a terminal as control bytes, whichever message it is in.
// Each Write is escaped on its own, so a caller writes whole runes (fmt's
// printers do).
type Writer struct {
	W io.Writer
}

// Write writes Text(p) to W and reports len(p) when all of it was written.
func (w Writer) Write(p []byte) (int, error) {
	if Clean(string(p)) {
		return w.W.Write(p)
	}
	if _, err := io.WriteString(w.W, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Raw returns the writer underneath w, for a caller that writes control
// bytes of its own (a progress line redrawn on a terminal) and escapes
// what it quotes itself.
func Raw(w io.Writer) io.Writer {
	if iw, ok := w.(Writer); ok {
		return iw.W
	}
	return w
}
