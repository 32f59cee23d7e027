// Package shapes measures flat shapes.
package shapes

// Shape is a flat figure.
type Shape interface {
	Area() float64
	Perimeter() float64
}
