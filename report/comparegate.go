package report

import (
	"fmt"

	"bench/internal/words"
	"bench/report/paired"
)

// ApplyGate decides whether the new side of c regressed (paired.Gate over
// the paired comparison c was made from: every per-task and pooled test) and keeps the decision in
// c.Gate, which every format then shows first.
func (c *Comparison) ApplyGate(o paired.GateOptions) paired.Decision {
	o.Alpha = c.Alpha
	d := paired.Gate(c.raw, o)
	c.Gate = &d
	return d
}

// gateLines are the lines the text formats print of a decision: the
// verdict, each reason and each note; none without a gate.
func gateLines(d *paired.Decision) []string {
	if d == nil {
		return nil
	}
	var lines []string
	if d.Regression {
		lines = append(lines, fmt.Sprintf("gate: REGRESSION (%s; %d results checked)", words.Plural(len(d.Reasons), "reason"), d.Checked))
	} else {
		lines = append(lines, fmt.Sprintf("gate: no regression (%d results checked)", d.Checked))
	}
	for _, r := range d.Reasons {
		lines = append(lines, "  "+r.Text)
	}
	for _, n := range d.Notes {
		lines = append(lines, "  note: "+n.Text)
	}
	return lines
}
