package paired

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
)

// Episode is what a comparison needs of one finished episode. Tokens and
// Turns are taken as given: the caller chooses the token basis (the
// server's count or the offline estimate) and uses the same on both sides.
// Lost episodes (infrastructure failures) must not be passed.
type Episode struct {
	Task  string `json:"task"`
	Track string `json:"track"`
	Model string `json:"model,omitempty"`
	// Variant is the episode's values of the run's dimensions that are
	// not compared (record.Episode.Variant): episodes pair within one, as
	// within one model; "" when there are none.
	Variant string  `json:"variant,omitempty"`
	Seed    int     `json:"seed"`
	Repeat  int     `json:"repeat"`
	Passed  bool    `json:"passed"`
	Tokens  float64 `json:"tokens"`
	Turns   float64 `json:"turns"`
}

// Key identifies an episode within one side: the fields Compare pairs on.
// A field that is the compared setting (Options.AcrossTracks,
// Options.AcrossModels) is blank in the keys Compare reports.
type Key struct {
	Task    string `json:"task"`
	Track   string `json:"track,omitempty"`
	Model   string `json:"model,omitempty"`
	Variant string `json:"variant,omitempty"`
	Seed    int    `json:"seed"`
	Repeat  int    `json:"repeat"`
}

// String is the key as task/track[/model][/variant]/seed-S[-rK], the
// blank fields left out.
func (k Key) String() string {
	s := k.Task
	for _, f := range []string{k.Track, k.Model, k.Variant} {
		if f != "" {
			s += "/" + f
		}
	}
	s += "/seed-" + strconv.Itoa(k.Seed)
	if k.Repeat > 0 {
		s += "-r" + strconv.Itoa(k.Repeat)
	}
	return s
}

// Cell is a task, track, model and variant: the unit of the per-task
// tests and a stratum of the pooled ones.
type Cell struct {
	Task    string `json:"task"`
	Track   string `json:"track,omitempty"`
	Model   string `json:"model,omitempty"`
	Variant string `json:"variant,omitempty"`
}

// Group is a track, model and variant: the unit of one pooled answer.
type Group struct {
	Track   string `json:"track,omitempty"`
	Model   string `json:"model,omitempty"`
	Variant string `json:"variant,omitempty"`
}

func (k Key) cell() Cell    { return Cell{k.Task, k.Track, k.Model, k.Variant} }
func (c Cell) group() Group { return Group{c.Track, c.Model, c.Variant} }

func compareKeys(a, b Key) int {
	return cmp.Or(compareCells(a.cell(), b.cell()), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Repeat, b.Repeat))
}

func compareCells(a, b Cell) int {
	return cmp.Or(cmp.Compare(a.Track, b.Track), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Variant, b.Variant), cmp.Compare(a.Task, b.Task))
}

func compareGroups(a, b Group) int {
	return cmp.Or(cmp.Compare(a.Track, b.Track), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Variant, b.Variant))
}

// validate returns an error naming the episode if its tokens or turns
// are not finite numbers of at least 0.
func validate(side string, e Episode) error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"tokens", e.Tokens}, {"turns", e.Turns}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
			return fmt.Errorf("%s episode %s/%s/seed-%d: %s %v is not a count", side, e.Task, e.Track, e.Seed, v.name, v.x)
		}
	}
	return nil
}
