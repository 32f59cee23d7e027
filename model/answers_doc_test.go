package model_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"bench/model"
)

// meaningWords name the meanings as docs/RESULTS.md does.
var meaningWords = map[model.Meaning]string{model.Lost: "lost", model.Stops: "stops the run", model.Stands: "stands"}

// answerRows renders model.Answers as the rows of docs/RESULTS.md's table.
func answerRows() []string {
	var rows []string
	for _, a := range model.Answers {
		k, _ := model.KindOf(a.Kind)
		retry := a.Retry
		if retry == "" {
			retry = "no"
		}
		rows = append(rows, fmt.Sprintf("| %s | `%s` | %s | %s |", a.What, k.Record, meaningWords[k.Meaning], retry))
	}
	return rows
}

// TestAnswersAreDocumented: docs/RESULTS.md holds the table of server
// answers exactly as model.Answers says it, in its order, so that the
// documentation cannot drift from the code.
func TestAnswersAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join(answerRows(), "\n")
	if !strings.Contains(string(doc), want) {
		t.Fatalf("docs/RESULTS.md does not hold the table of server answers; its rows should read:\n%s", want)
	}
}
