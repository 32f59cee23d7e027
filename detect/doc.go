// Package detect decides whether an agent opened in a directory takes the
// coding posture (coding guidance plus a workspace snapshot) or stays
// general. It is a port of the pinned Hermes rules described in docs/DETECTOR.md:
// the mode and platform rules, the project-marker walk, the git-root rule
// with its bounded code scan, and the workspace snapshot. It also holds the
// naive rule ("a .git means coding") and the replay of the lesson's nine
// directory cases that `bench detect --check` compares with expected.json.
//
// The decision rules are ported unchanged. The snapshot differs from Hermes
// in three documented ways: a git command that fails leaves its line out
// (Hermes would print "Status: clean"); Cargo.lock, go.sum and Gemfile.lock
// also name a package manager; and go.mod and Cargo.toml give a Verify
// command (see projectFacts). The header and guidance are bench's own text.
package detect
