// Package record is bench's on-disk format: the run.json, episodes.jsonl and
// trajectory files of one run folder, written durably and read back with
// torn or repeated lines reported as warnings, run.json checked on every
// read. It holds the one definition of how an episode counts (Status,
// LineVerdict and the check of a pass against its trajectory) and of a
// run's identity (Run.UID) and plan (Run.Plan), and streams a folder's
// episodes (Folder.Scan) for the views. docs/RESULTS.md documents every
// field.
package record
