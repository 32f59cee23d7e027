// Package record is bench's on-disk format: the run.json, episodes.jsonl and
// trajectory files of one run folder, written durably and read back with
// torn or repeated lines reported as warnings. docs/RESULTS.md documents every
// field.
package record
