package shop

// Cart is a list of items.
type Cart struct{ Items []Item }

// Total is what the whole cart costs.
func (c Cart) Total() int {
	total := 0
	for _, it := range c.Items {
		total += it.Price * it.Qty
	}
	return total
}
