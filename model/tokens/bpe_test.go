package tokens

import (
	"maps"
	"os/exec"
	"strings"
	"testing"

	upstream "github.com/pkoukk/tiktoken-go-loader"
)

// TestBuiltInRanksMatchUpstream checks that the compressed rank files hold
// exactly the ranks of tiktoken-go-loader's assets they were made from.
func TestBuiltInRanksMatchUpstream(t *testing.T) {
	for _, name := range []string{CL100K, O200K} {
		got, err := bpeLoader{}.LoadTiktokenBpe("https://example.invalid/" + name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		want, err := upstream.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || !maps.Equal(got, want) {
			t.Errorf("%s: %d built-in ranks differ from the %d upstream ones (run go generate ./model/tokens)", name, len(got), len(want))
		}
	}
}

func TestUnknownEncodingFileIsAnError(t *testing.T) {
	_, err := bpeLoader{}.LoadTiktokenBpe("p50k_base.tiktoken")
	if err == nil || !strings.Contains(err.Error(), "p50k_base is not built into bench") {
		t.Fatalf("err = %v, want one naming p50k_base", err)
	}
}

func TestTruncatedRanksAreAnError(t *testing.T) {
	for _, data := range [][]byte{{0, 0}, {0, 0, 0, 2, 1}, {0, 0, 0, 1, 3, 'a'}, {0, 0, 0, 1, 1, 'a', 'b'}} {
		if _, err := decodeRanks(data); err == nil {
			t.Errorf("decodeRanks(%v) = nil error, want one", data)
		}
	}
}

// TestBinaryEmbedsOnlyTheUsedEncodings checks that the bench command does
// not link tiktoken-go-loader's assets, which embed four encodings.
func TestBinaryEmbedsOnlyTheUsedEncodings(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "bench/cmd/bench").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/pkoukk/tiktoken-go-loader") {
			t.Errorf("bench links %s", pkg)
		}
	}
}
