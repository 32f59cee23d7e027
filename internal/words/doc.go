// Package words writes counts for bench's messages, footnotes and tables,
// one way everywhere: Plural gives a count with its noun ("1 episode",
// "3 episodes"). It depends on nothing but the standard library, so that
// the report and the code that runs episodes can both use it.
package words
