package loop

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"bench/record"
	"bench/workspace"
)

// listFiles is the list_files tool: every file under path, __pycache__ left out.
func listFiles(ctx context.Context, s *session, a map[string]string) (string, error) {
	if strings.TrimSpace(a["path"]) == "" {
		a["path"] = "." // an empty directory argument means the whole workspace
	}
	names, err := s.ws.List(ctx, a["path"])
	if err != nil && !errors.Is(err, workspace.ErrTooMany) {
		return "", err
	}
	if len(names) == 0 {
		return "(no files)", nil
	}
	text := strings.Join(names, "\n")
	if err != nil {
		text += "\n[" + err.Error() + "]"
	}
	return text, nil
}

// readFile is the read_file tool.
func readFile(ctx context.Context, s *session, a map[string]string) (string, error) {
	b, err := s.ws.ReadFile(a["path"])
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// writeFile is the write_file tool; it creates missing folders.
func writeFile(ctx context.Context, s *session, a map[string]string) (string, error) {
	rel, err := workspace.Clean(a["path"])
	if err != nil {
		return "", err
	}
	if err := s.ws.WriteFile(a["path"], []byte(a["content"])); err != nil {
		return "", err
	}
	s.env.Rec.Record(record.Event{Kind: record.EventWrite, Path: rel, Bytes: len(a["content"])})
	return fmt.Sprintf("wrote %d bytes to %s", len(a["content"]), rel), nil
}

// editFile is the edit_file tool: old must occur exactly once.
func editFile(ctx context.Context, s *session, a map[string]string) (string, error) {
	rel, err := workspace.Clean(a["path"])
	if err != nil {
		return "", err
	}
	if a["old"] == "" {
		return "", errors.New("old text is empty: give the exact text to replace")
	}
	b, err := s.ws.ReadFile(a["path"])
	if err != nil {
		return "", err
	}
	text := string(b)
	if n := strings.Count(text, a["old"]); n != 1 {
		return "", fmt.Errorf("old text found %d times in %s; it must match exactly once", n, rel)
	}
	text = strings.Replace(text, a["old"], a["new"], 1)
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("edit_file not run: %w", err)
	}
	if err := s.ws.WriteFile(a["path"], []byte(text)); err != nil {
		return "", err
	}
	s.env.Rec.Record(record.Event{Kind: record.EventWrite, Path: rel, Bytes: len(text)})
	return fmt.Sprintf("edited %s: replaced %d bytes with %d bytes", rel, len(a["old"]), len(a["new"])), nil
}
