package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindStart: the start script is found beside the module root or a
// folder above it, or where BENCH_OLLAMA_DIR says; else a clear error.
func TestFindStart(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "wt", "clone")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvDir, "")
	if _, err := FindStart(root); err == nil || !strings.Contains(err.Error(), EnvDir) {
		t.Errorf("with no script: got %v, want an error naming %s", err, EnvDir)
	}
	shared := filepath.Join(base, "shared", "ollama")
	if err := os.MkdirAll(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(shared, "start")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := FindStart(root); err != nil || got != script {
		t.Errorf("two levels up: got %q, %v; want %q", got, err, script)
	}
	t.Setenv(EnvDir, filepath.Join(base, "elsewhere"))
	if _, err := FindStart(root); err == nil || !strings.Contains(err.Error(), "elsewhere") {
		t.Errorf("%s pointing at nothing: got %v, want an error naming the folder", EnvDir, err)
	}
	t.Setenv(EnvDir, shared)
	if got, err := FindStart(root); err != nil || got != script {
		t.Errorf("%s: got %q, %v; want %q", EnvDir, got, err, script)
	}
}
