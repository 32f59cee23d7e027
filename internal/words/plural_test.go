package words

import "testing"

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 episodes", 1: "1 episode", 2: "2 episodes", 11: "11 episodes"} {
		if got := Plural(n, "episode"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
