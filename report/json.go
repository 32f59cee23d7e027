package report

import (
	"encoding/json"
	"io"
)

// WriteJSON renders the report as an indented JSON document (see Report).
func WriteJSON(w io.Writer, rep *Report) error {
	return WriteJSONValue(w, rep)
}

// WriteJSONValue writes v as indented JSON.
func WriteJSONValue(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
