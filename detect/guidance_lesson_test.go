package detect

import (
	"strings"
	"testing"
)

// TestGuidanceForDropsOnlyTheSnapshotSentence: without a snapshot the
// guidance loses its one sentence about it and nothing else; the sentence
// is in Guidance, so that the cut cannot silently do nothing.
func TestGuidanceForDropsOnlyTheSnapshotSentence(t *testing.T) {
	if !strings.Contains(Guidance, " "+snapshotSentence) {
		t.Fatal("Guidance lacks the snapshot sentence")
	}
	without := GuidanceFor(false)
	if strings.Contains(without, "snapshot") || len(Guidance)-len(without) != len(snapshotSentence)+1 {
		t.Errorf("without a snapshot:\n%s", without)
	}
	if GuidanceFor(true) != Guidance {
		t.Error("with a snapshot the guidance changed")
	}
}
