package shop

// Cart is a list of items.
type Cart struct{ Items []Item }

// Total is what the whole cart costs.
func (c Cart) Total() Cents {
	var total Cents
	for _, it := range c.Items {
		total += it.Price * Cents(it.Qty)
	}
	return total
}
