package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"bench/hybrid"
	"bench/loop"
	"bench/oracle"
	"bench/track"
	"bench/trackfacts"
	"bench/workflow"
)

// tracks is the registry, in the order every table lists them; the names,
// that order and which track is compared with which are trackfacts'.
var tracks = []track.Track{
	{Name: trackfacts.Workflow, Run: workflow.Workflow, NeedsModel: true, Prompts: workflow.Prompts()},
	{Name: trackfacts.WorkflowRetry, Run: workflow.Retry, NeedsModel: true, Prompts: workflow.Prompts()},
	{Name: trackfacts.Hybrid, Run: hybrid.Hybrid, NeedsModel: true, UsesTools: true, UsesPosture: true, Delegates: true,
		ComparedTo: trackfacts.ComparedTo(trackfacts.Hybrid), Prompts: hybrid.Prompts()},
	{Name: trackfacts.Agent, Run: loop.Agent, NeedsModel: true, UsesTools: true, UsesPosture: true,
		ComparedTo: trackfacts.ComparedTo(trackfacts.Agent), Prompts: loop.Prompts()},
	{Name: trackfacts.Oracle, Run: oracle.Oracle},
}

// Tracks returns the registry of tracks, in table order.
func Tracks() []track.Track { return slices.Clone(tracks) }

// LookupTrack returns the track with the given command-line word.
func LookupTrack(name string) (track.Track, bool) {
	i := slices.IndexFunc(tracks, func(t track.Track) bool { return t.Name == name })
	if i < 0 {
		return track.Track{}, false
	}
	return tracks[i], true
}

// TrackWords returns the valid track words, in table order.
func TrackWords() []string {
	words := make([]string, len(tracks))
	for i, t := range tracks {
		words[i] = t.Name
	}
	return words
}

// trackHas reports whether the named track has a property; unknown tracks have none.
func trackHas(name string, has func(track.Track) bool) bool {
	t, ok := LookupTrack(name)
	return ok && has(t)
}

// NeedsModel reports whether a track calls the model.
func NeedsModel(name string) bool {
	return trackHas(name, func(t track.Track) bool { return t.NeedsModel })
}

// UsesTools reports whether a track offers the model tools.
func UsesTools(name string) bool {
	return trackHas(name, func(t track.Track) bool { return t.UsesTools })
}

// PromptsDigest returns the SHA-256 of the fixed text of the named tracks,
// in registry order, for record.Run.PromptsSHA256.
func PromptsDigest(names []string) string {
	h := sha256.New()
	for _, t := range tracks {
		if slices.Contains(names, t.Name) {
			fmt.Fprintf(h, "%s\x00%s\x00", t.Name, t.Prompts)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
