package cause_test

import (
	"os"
	"strings"
	"testing"

	"bench/record"
)

// TestResultsDocumentsEveryCause: docs/RESULTS.md has a row for every
// cause of the vocabulary, naming the question it answers.
func TestResultsDocumentsEveryCause(t *testing.T) {
	b, err := os.ReadFile("../docs/RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, c := range record.CauseVocabulary {
		row := "| `" + string(c.Name) + "` |"
		i := strings.Index(doc, row)
		if i < 0 {
			t.Errorf("docs/RESULTS.md has no row for %s", c.Name)
			continue
		}
		line := doc[i : i+strings.Index(doc[i:], "\n")]
		q := strings.TrimSpace(strings.Split(line, "|")[2])
		if (c.Question == 0) != (q == "") || (c.Question > 0 && q != string(rune('0'+c.Question))) {
			t.Errorf("%s: the docs give question %q, the vocabulary %d", c.Name, q, c.Question)
		}
	}
}
