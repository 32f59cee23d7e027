package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCreateRefusesARunNoReaderTakes: Create checks a run as every reader
// does (Run.Check) and creates nothing for one that fails, so bench never
// writes a folder its own report refuses.
func TestCreateRefusesARunNoReaderTakes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	bad := sampleRun()
	bad.Tasks = nil
	if _, err := Create(dir, bad); err == nil || !strings.Contains(err.Error(), `"tasks"`) {
		t.Fatalf("Create of a run without tasks: %v, want the check's refusal", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the refused run left %s behind (%v)", dir, err)
	}
	w, err := Create(dir, sampleRun())
	if err != nil {
		t.Fatalf("Create of a valid run: %v", err)
	}
	w.Close()
}
