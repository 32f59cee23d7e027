package shapes

// Square is a square with sides of length Side.
type Square struct{ Side float64 }

// Area is the square's area.
func (s Square) Area() float64 { return s.Side * s.Side }

// Perimeter is the length of the square's outline.
func (s Square) Perimeter() float64 { return 4 * s.Side }
