package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// WriteJSON renders the report as a JSON document (see Report): each
// top-level field on its own lines, each element of its array compact on one
// line, so that the document diffs well and stays quick to write. It is
// written element by element: a report of many thousand episodes is never
// held as one encoded buffer.
func WriteJSON(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n")
	fields := []struct {
		name  string
		write func() error
	}{
		{"runs", func() error { return writeArray(bw, rep.Runs) }},
		{"tracks", func() error { return writeArray(bw, rep.Tracks) }},
		{"rows", func() error { return writeArray(bw, rep.Rows) }},
		{"ratios", func() error { return writeArray(bw, rep.Ratios) }},
		{"mcnemar", func() error { return writeArray(bw, rep.McNemar) }},
		{"pooled", func() error { return writeArray(bw, rep.Pooled) }},
		{"tool_sequences", func() error { return writeArray(bw, rep.Sequences) }},
		{"tool_sequences_more", func() error { return writeArray(bw, rep.MoreSeqs) }},
		{"twins", func() error { return writeArray(bw, rep.Twins) }},
		{"footnotes", func() error { return writeArray(bw, rep.Footnotes) }},
	}
	if len(rep.Delegation) > 0 { // no hybrid: no field
		fields = append(fields, struct {
			name  string
			write func() error
		}{"delegation", func() error { return writeArray(bw, rep.Delegation) }})
	}
	if len(rep.VariantTasks) > 0 { // runs without dimensions: no field
		fields = append(fields, struct {
			name  string
			write func() error
		}{"variant_tasks", func() error { return writeArray(bw, rep.VariantTasks) }})
	}
	if len(rep.Design) > 0 { // older runs record no designs: no field
		fields = append(fields, struct {
			name  string
			write func() error
		}{"design", func() error { return writeArray(bw, rep.Design) }})
	}
	for i, f := range fields {
		bw.WriteString(`  "` + f.name + `": `)
		if err := f.write(); err != nil {
			return err
		}
		if i < len(fields)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// writeArray writes xs as the indented value of a top-level field.
func writeArray[T any](w *bufio.Writer, xs []T) error {
	if len(xs) == 0 {
		w.WriteString("[]")
		return nil
	}
	w.WriteString("[\n")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // footnotes say ">= 6" and "p < 0.05"; the page escapes what it shows itself
	for i := range xs {
		buf.Reset()
		if err := enc.Encode(xs[i]); err != nil {
			return err
		}
		w.WriteString("    ")
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		if i < len(xs)-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	w.WriteString("  ]")
	return nil
}

// WriteJSONValue writes v as indented JSON.
func WriteJSONValue(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
