package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"bench/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// readRunForTest is a stand-in for record.Read, enough for the synthetic
// folder: it decodes run.json and the episode lines, and turns an
// undecodable last line into a warning.
func readRunForTest(t *testing.T, dir string) record.Data {
	t.Helper()
	in := record.Data{Dir: dir}
	raw, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &in.Run); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "episodes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		var ep record.Episode
		if err := json.Unmarshal(sc.Bytes(), &ep); err != nil {
			in.Warnings = append(in.Warnings, filepath.Join(dir, "episodes.jsonl")+":"+itoa(line)+": skipped a torn last line")
			continue
		}
		in.Episodes = append(in.Episodes, ep)
	}
	return in
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test ./report -update to accept):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGoldenFormats(t *testing.T) {
	in := readRunForTest(t, "testdata/synthetic-run")
	in.Dir = "synthetic-run" // stable across machines
	rep := FromData([]record.Data{in}).Report()
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer, *Report) error
	}{
		{"report.txt.golden", func(b *bytes.Buffer, r *Report) error { return WriteText(b, r) }},
		{"report.md.golden", func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) }},
		{"report.csv.golden", func(b *bytes.Buffer, r *Report) error { return WriteCSV(b, r) }},
		{"report.json.golden", func(b *bytes.Buffer, r *Report) error { return WriteJSON(b, r) }},
	} {
		t.Run(f.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := f.write(&buf, rep); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, f.name, buf.Bytes())
		})
	}
}

// TestWriteJSONIsTheReport: the streamed document decodes to the same
// value as encoding/json's encoding of the whole Report.
func TestWriteJSONIsTheReport(t *testing.T) {
	for _, rep := range []*Report{FromData([]record.Data{readRunForTest(t, "testdata/synthetic-run")}).Report(), FromData(nil).Report()} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, rep); err != nil {
			t.Fatal(err)
		}
		whole, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var got, want any
		if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
			t.Fatalf("WriteJSON wrote invalid JSON: %v\n%s", err, buf.Bytes())
		}
		if err := json.Unmarshal(whole, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("WriteJSON differs from json.Marshal:\n%s\n---\n%s", buf.Bytes(), whole)
		}
	}
}
