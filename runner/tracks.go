package runner

import (
	"sort"

	"bench/loop"
	"bench/track"
	"bench/workflow"
)

// Tracks returns the registry of tracks by their command-line word (a contract).
func Tracks() map[string]track.Func {
	return map[string]track.Func{
		"workflow":       workflow.Workflow,
		"workflow-retry": workflow.Retry,
		"agent":          loop.Agent,
		"oracle":         Oracle,
	}
}

// TrackWords returns the valid track words, sorted.
func TrackWords() []string {
	var words []string
	for w := range Tracks() {
		words = append(words, w)
	}
	sort.Strings(words)
	return words
}

// UsesPosture reports whether a track gives the model the coding guidance
// and snapshot that --posture decides; the others always run general.
func UsesPosture(word string) bool { return word == "agent" }

// NeedsModel reports whether a track calls the model.
func NeedsModel(word string) bool { return word != "oracle" }

// UsesTools reports whether a track offers the model tools, which a model
// without tool support cannot take.
func UsesTools(word string) bool { return word == "agent" }
