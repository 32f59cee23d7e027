package words

import "strconv"

// Plural words a count of things: "1 episode", "3 episodes".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
