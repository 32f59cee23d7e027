package replay

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"bench/model"
	"bench/record"
)

// Load reads the trajectory at path of the recorded episode ep and checks
// that it is whole: every line read (none torn or malformed), the sequence
// numbers 0, 1, 2, … without a gap, one end event and last, a reply to
// every model call but a failed last one, as many calls and tokens as the
// episode says, and, when episodes.jsonl holds the file's digest, the
// same bytes. A trajectory that is not is refused with an error naming the
// episode, the file and what is missing.
func Load(path string, ep record.Episode) ([]record.Event, error) {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("cannot replay %s: its trajectory %s %s", ep.Key(), path, fmt.Sprintf(format, args...))
	}
	raw, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, refuse("is missing: the episode's every event is")
	case err != nil:
		return nil, fmt.Errorf("cannot replay %s: reading its trajectory: %w", ep.Key(), err)
	}
	events, warnings, err := record.ReadTrajectory(path)
	if err != nil {
		return nil, fmt.Errorf("cannot replay %s: %w", ep.Key(), err)
	}
	if len(warnings) > 0 {
		return nil, refuse("is torn or damaged, so events are missing from it: %s", warnings[0])
	}
	if problem := checkEvents(ep, events); problem != "" {
		return nil, refuse("%s", problem)
	}
	if want := ep.TrajectorySHA256; want != "" {
		sum := sha256.Sum256(raw)
		if got := hex.EncodeToString(sum[:]); !record.SameDigest(got, want) {
			return nil, refuse("was changed after the episode ended: its SHA-256 is %s, episodes.jsonl recorded %s", model.ShortDigest(got), model.ShortDigest(want))
		}
	}
	return events, nil
}

// checkEvents says what is wrong with the events of the recorded episode
// ep ("" when nothing is): see Load.
func checkEvents(ep record.Episode, events []record.Event) string {
	if len(events) == 0 {
		return "is empty: the episode's every event is missing"
	}
	for i, ev := range events {
		if ev.Seq != i {
			return fmt.Sprintf("lacks event seq %d (line %d holds seq %d): events were cut out of it", i, i+1, ev.Seq)
		}
		if ev.Kind == record.EventEnd && i != len(events)-1 {
			return fmt.Sprintf("has its end event at seq %d with events after it: it is not one episode's", i)
		}
	}
	if last := events[len(events)-1]; last.Kind != record.EventEnd {
		return fmt.Sprintf("ends at seq %d (a %s event) without its end event: it was cut short, and what came after seq %d is missing", last.Seq, last.Kind, last.Seq)
	}
	return checkCalls(ep, events)
}

// checkCalls says what is wrong with the model calls of a whole
// trajectory: a request not answered by the next event but in the
// episode's last call, a response without its request or its reply, or
// other counts of calls or tokens than the episode's.
func checkCalls(ep record.Episode, events []record.Event) string {
	requests, prompt, completion := 0, 0, 0
	failed := -1 // seq of an unanswered request
	for i, ev := range events {
		switch ev.Kind {
		case record.EventRequest:
			requests++
			if next := events[i+1]; next.Kind != record.EventResponse {
				if failed >= 0 {
					return fmt.Sprintf("has model calls without a reply at seq %d and %d: replies are missing", failed, ev.Seq)
				}
				failed = ev.Seq
			}
		case record.EventResponse:
			if i == 0 || events[i-1].Kind != record.EventRequest {
				return fmt.Sprintf("has a reply at seq %d without its request before it: the request is missing", ev.Seq)
			}
			if ev.Reply == nil {
				return fmt.Sprintf("has a response at seq %d without its reply", ev.Seq)
			}
			prompt += ev.PromptTokens
			completion += ev.CompletionTokens
		}
	}
	switch {
	case requests != ep.ModelCalls:
		return fmt.Sprintf("holds %d model calls, but episodes.jsonl says the episode made %d: calls are missing", requests, ep.ModelCalls)
	case failed >= 0 && failed != lastRequest(events):
		return fmt.Sprintf("has a model call without a reply at seq %d, before later calls: its reply is missing", failed)
	case failed >= 0 && endedByItself(ep.ExitReason):
		return fmt.Sprintf("has a model call without a reply at seq %d, but the episode ended %s: the reply is missing", failed, ep.ExitReason)
	case prompt != ep.PromptTokens || completion != ep.CompletionTokens:
		return fmt.Sprintf("has replies of %d prompt and %d completion tokens, but episodes.jsonl says %d and %d: replies are missing or changed",
			prompt, completion, ep.PromptTokens, ep.CompletionTokens)
	}
	return ""
}

// lastRequest is the seq of the last request event, or -1.
func lastRequest(events []record.Event) int {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Kind == record.EventRequest {
			return events[i].Seq
		}
	}
	return -1
}
