package trackfacts

// KnownNames is, for the tests outside the package, the names of the
// known tracks in table order: nothing in bench needs the list itself
// (Lookup, Compare and Pairs are what the report and the runner read).
func KnownNames() []string {
	names := make([]string, len(known))
	for i, f := range known {
		names[i] = f.Name
	}
	return names
}
