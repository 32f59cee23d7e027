package report

// footnotes numbers caveats in the order they are first added, once each.
type footnotes struct {
	list []Footnote
}

// add returns the ID of the footnote with text, adding it if it is new.
func (f *footnotes) add(text string) int {
	for _, n := range f.list {
		if n.Text == text {
			return n.ID
		}
	}
	id := len(f.list) + 1
	f.list = append(f.list, Footnote{ID: id, Text: text})
	return id
}

// addTo appends id to ids unless it is there already.
func addTo(ids []int, id int) []int {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}
