package record

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Dimension is a run-defining setting given several values (--posture
// off,on): a dimension of the plan, as the model is. Values are spelled as
// the flag was given them.
type Dimension struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
}

// Variants are the run's variants (see the function Variants).
func (r Run) Variants() []string { return Variants(r.Dimensions) }

// Variants are the variants of dimensions dims, as episodes name them
// (Episode.Variant): every combination of one value of each dimension,
// name=value joined by one space in the dimensions' order, the last one
// varying fastest ("max-turns=5 posture=off", "max-turns=5 posture=on",
// …); one "" without dimensions. A dimension without values is passed
// over.
func Variants(dims []Dimension) []string {
	out := []string{""}
	for _, d := range dims {
		if len(d.Values) == 0 {
			continue
		}
		next := make([]string, 0, len(out)*len(d.Values))
		for _, v := range out {
			for _, val := range d.Values {
				next = append(next, strings.TrimSpace(v+" "+d.Name+"="+val))
			}
		}
		out = next
	}
	return out
}

// VariantDir is the folder of a variant's trajectories: its pairs joined
// by commas ("max-turns=5,posture=on").
func VariantDir(variant string) string { return strings.ReplaceAll(variant, " ", ",") }

// VariantOfDir is the variant whose folder is dir (VariantDir read back):
// "max-turns=5,posture=on" is "max-turns=5 posture=on".
func VariantOfDir(dir string) string { return strings.ReplaceAll(dir, ",", " ") }

// WithVariant is s with the values of variant ("max-turns=5 posture=on")
// set; "" is s.
func (s RunSettings) WithVariant(variant string) (RunSettings, error) {
	for _, pair := range strings.Fields(variant) {
		name, text, ok := strings.Cut(pair, "=")
		d, known := Lookup(name)
		if !ok || !known || !d.Dimension {
			return s, fmt.Errorf("variant %q: %q is no setting=value of a dimension", variant, pair)
		}
		v, err := d.Parse(text)
		if err != nil {
			return s, err
		}
		d.Set(&s, v)
	}
	return s, nil
}

// Parse reads one value of the setting as its flag spells it, typed as
// Typed gives it; a size (UnitBytes) is read by the command line, not here.
func (d Def) Parse(text string) (any, error) {
	f, ok := reflect.TypeFor[RunSettings]().FieldByName(d.Field)
	if !ok || d.Source != FromTable || d.Unit == UnitBytes {
		return nil, fmt.Errorf("--%s cannot be read as one value of a dimension", d.Name)
	}
	bad := func(what string) error { return fmt.Errorf("bad --%s %q: not %s", d.Name, text, what) }
	if d.Unit == UnitMillis {
		v, err := time.ParseDuration(text)
		if err != nil {
			return nil, bad("a duration such as 10m")
		}
		return v, nil
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, bad("a whole number")
		}
		return reflect.ValueOf(n).Convert(f.Type).Interface(), nil
	case reflect.Float64:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, bad("a number")
		}
		return x, nil
	case reflect.Bool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, bad("true or false")
		}
		return b, nil
	}
	return text, nil
}

// CheckDimensions checks a run's dimensions: settings of Table that may be
// one, each once, with at least two values, each once, each a value the
// setting's check accepts.
func CheckDimensions(dims []Dimension, base RunSettings) error {
	for i, dim := range dims {
		d, ok := Lookup(dim.Name)
		if !ok || !d.Dimension {
			return fmt.Errorf("--%s cannot take several values: only %s can be dimensions of a run", dim.Name, strings.Join(DimensionNames(), " and "))
		}
		if slices.ContainsFunc(dims[:i], func(o Dimension) bool { return o.Name == dim.Name }) {
			return fmt.Errorf("--%s is a dimension twice", dim.Name)
		}
		if len(dim.Values) < 2 {
			return fmt.Errorf("--%s as a dimension needs at least two values, got %q", dim.Name, dim.Values)
		}
		for j, v := range dim.Values {
			if slices.Contains(dim.Values[:j], v) {
				return fmt.Errorf("--%s names %s twice; give each value once: %s", dim.Name, v, strings.Join(slices.Compact(slices.Clone(dim.Values)), ","))
			}
			s, err := base.WithVariant(dim.Name + "=" + v)
			if err != nil {
				return err
			}
			if d.Check != nil {
				if err := d.Check(d.Name, d.Get(s)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// DimensionNames are the settings that may be dimensions, in Table's order.
func DimensionNames() []string {
	var out []string
	for _, d := range Table {
		if d.Dimension {
			out = append(out, "--"+d.Name)
		}
	}
	return out
}
