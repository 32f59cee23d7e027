package shapes

import "math"

// Circle is a circle of radius R.
type Circle struct{ R float64 }

// Area is the circle's area.
func (c Circle) Area() float64 { return math.Pi * c.R * c.R }

// Perimeter is the length of the circle's outline.
func (c Circle) Perimeter() float64 { return 2 * math.Pi * c.R }
