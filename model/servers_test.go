package model

import (
	"slices"
	"testing"
)

func TestServersCrossHostsAndModels(t *testing.T) {
	base := Config{Backend: BackendOllama, Host: "h0", Model: "m0", Encoding: "o200k_base"}
	var got []string
	for _, c := range Servers(base, []string{"h1", "h2"}, []string{"a", "b"}) {
		if c.Backend != base.Backend || c.Encoding != base.Encoding {
			t.Errorf("%+v lost base's settings", c)
		}
		got = append(got, c.Host+"/"+c.Model)
	}
	if want := []string{"h1/a", "h1/b", "h2/a", "h2/b"}; !slices.Equal(got, want) {
		t.Errorf("Servers = %v, want %v", got, want)
	}
	if one := Servers(base, nil, nil); len(one) != 1 || one[0] != base {
		t.Errorf("Servers(base, nil, nil) = %+v, want base alone", one)
	}
}
