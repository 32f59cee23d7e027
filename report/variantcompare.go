package report

import (
	"slices"
	"strings"

	"bench/report/paired"
)

// VariantTask is, within runs with dimensions (bench run --posture
// off,on), one task, track and model compared between two values of one
// dimension: New against Old (the dimension's first value), its episodes
// paired by task, track, model, seed and repeat (and the values of the
// other dimensions, Variant), tested by exact McNemar (paired.Compare).
type VariantTask struct {
	Dimension string `json:"dimension"` // the setting compared (posture, max-turns)
	Old       string `json:"old"`       // its value on the old side: the first the run lists
	New       string `json:"new"`
	Notes     []int  `json:"notes,omitempty"`
	paired.CellResult
}

// dimensionValues is one dimension of the aggregate's runs and its values,
// in flag order.
type dimensionValues struct {
	name   string
	values []string
}

// dimensions are the dimensions of the aggregate's runs, the first run
// that names one giving its values' order; a value only a later run has
// comes after.
func (a *Aggregate) dimensions() []dimensionValues {
	var out []dimensionValues
	for _, in := range a.inputs {
		for _, d := range in.run.Dimensions {
			i := slices.IndexFunc(out, func(x dimensionValues) bool { return x.name == d.Name })
			if i < 0 {
				out = append(out, dimensionValues{name: d.Name})
				i = len(out) - 1
			}
			for _, v := range d.Values {
				if !slices.Contains(out[i].values, v) {
					out[i].values = append(out[i].values, v)
				}
			}
		}
	}
	return out
}

// splitVariant returns the value of dimension name in variant ("max-turns=5
// posture=on") and the variant without it; ok is false when the variant
// has no value of name.
func splitVariant(variant, name string) (value, rest string, ok bool) {
	var others []string
	for _, part := range strings.Fields(variant) {
		n, v, _ := strings.Cut(part, "=")
		if n == name && !ok {
			value, ok = v, true
			continue
		}
		others = append(others, part)
	}
	return value, strings.Join(others, " "), ok
}

// variantComparisons compares, for each dimension of the runs, each value
// after the first against the first, over the cells that hold it: per
// task, track and model (exact McNemar), and per track and model pooled
// over tasks (the stratified test of package paired, as bench compare
// pools), with the token ratio and the seeds that would settle a result
// within noise. Episodes pair only within a run, as the report's other
// tests pair them; the values of the other dimensions are part of the
// key.
func (a *Aggregate) variantComparisons(cells []*cell, notes *footnotes, effect float64) ([]VariantTask, []TrackPooled) {
	tasks, pooled := []VariantTask{}, []TrackPooled{}
	runOf := a.runKey()
	for _, d := range a.dimensions() {
		if len(d.values) < 2 {
			continue
		}
		byValue := map[string][]*cell{}
		rests := map[*cell]string{}
		for _, c := range cells {
			if v, rest, ok := splitVariant(c.variant, d.name); ok {
				byValue[v] = append(byValue[v], c)
				rests[c] = rest
			}
		}
		base := d.values[0]
		for _, v := range d.values[1:] {
			oldCells, newCells := byValue[base], byValue[v]
			basis := tokenBasis(sideCells{a, newCells}, sideCells{a, oldCells})
			key := func(e *epRec, ep paired.Episode) paired.Episode {
				ep.Variant = rests[a.cells[e.cell]]
				if runOf != nil {
					ep = runOf(e, ep)
				}
				return ep
			}
			old, nOld := a.pairedEpisodes(oldCells, basis, key)
			new, nNew := a.pairedEpisodes(newCells, basis, key)
			if nOld == 0 || nNew == 0 {
				continue
			}
			c, err := paired.Compare(old, new, paired.Options{Seed: 1, Effect: effect})
			if err != nil { // counts are never negative and effect was checked: no error can come
				continue
			}
			for _, cr := range c.Cells {
				vt := VariantTask{Dimension: d.name, Old: base, New: v, CellResult: cr}
				vt.Notes = variantTaskNotes(cr, vt.prefix(), notes)
				tasks = append(tasks, vt)
			}
			for _, pr := range c.Pooled {
				tp := TrackPooled{Dimension: d.name, New: v, Old: base, TokenBasis: basis, PooledResult: pr}
				tp.Notes = pooledNotes(pr, tp.prefix(), notes)
				pooled = append(pooled, tp)
			}
		}
	}
	return tasks, pooled
}

// prefix names a per-task comparison of variants in its footnotes: by its
// setting and track, not its task, so that the tasks of one caveat share
// its footnote.
func (vt VariantTask) prefix() string {
	s := vt.Dimension + " " + vt.New + " against " + vt.Old + ", " + vt.Track + " per task"
	for _, x := range []string{vt.Model, vt.Variant} {
		if x != "" {
			s += " (" + x + ")"
		}
	}
	return s + ": "
}

// variantTaskNoteKinds are the caveats of a per-task comparison of
// variants its table footnotes: those that say the row's figures mean
// less than they seem.
var variantTaskNoteKinds = []string{paired.CaveatCannotReach, paired.CaveatUnpaired, paired.CaveatLeftOut, paired.CaveatNoDifference,
	paired.CaveatSeedsUnknown, paired.CaveatSeedsBeyond, paired.CaveatAssumed, paired.CaveatRatioUndefined, paired.CaveatUnbounded}

// variantTaskNotes adds the caveats of r that its table footnotes, each
// after prefix, and returns their IDs (turns are in no table).
func variantTaskNotes(r paired.CellResult, prefix string, notes *footnotes) []int {
	var ids []int
	for _, c := range r.Caveats {
		if strings.HasPrefix(c.Text, "turns") {
			continue
		}
		if slices.Contains(variantTaskNoteKinds, c.Kind) {
			ids = addTo(ids, notes.add(prefix+c.Text))
		}
	}
	return ids
}
