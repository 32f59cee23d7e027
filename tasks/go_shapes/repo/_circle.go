package shapes

import "math"

// Circle is a circle of radius R.
type Circle struct{ R float64 }

// Area is the circle's area.
func (c Circle) Area() float64 { return math.Pi * c.R * c.R }
