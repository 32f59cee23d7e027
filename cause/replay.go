package cause

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"bench/trackfacts"

	"bench/workflow/replytext"

	"bench/model"
	"bench/record"
)

// written is what an episode's writes left in one file. The write events
// hold a path and a size but not the content: replay finds the content
// again from what the track wrote it from (the agent's tool arguments,
// the workflow's reply) and keeps it only when its size is the recorded
// one.
type written struct {
	path     string
	content  string // the file after the last write, when known
	known    bool
	size     int  // bytes of the last write
	writes   int  // writes to the file
	fallback bool // the last write was the workflow's naive fallback
	noBlock  bool // the last write came from a reply without a code block (prose written as the file)
	cut      bool // the last write was a workflow's of a reply the server cut at the reply cap
	turn     int  // the turn of the last write
}

// replay is every write of an episode, by file.
type replay struct {
	files   map[string]*written
	order   []string // the files in the order first written
	writes  int
	lastAt  int // index in the events of the last write, -1 when none
	rejects []record.Event
	lastRej int // index of the last reject, -1 when none
}

// replayWrites follows the events from the task's original files.
func replayWrites(events []record.Event, original map[string]string) *replay {
	rp := &replay{files: map[string]*written{}, lastAt: -1, lastRej: -1}
	var reply *record.Event // the last response
	var call *record.Event  // the tool call being run
	for i := range events {
		ev := &events[i]
		switch ev.Kind {
		case record.EventResponse:
			reply, call = ev, nil
		case record.EventToolCall:
			call = ev
		case record.EventToolResult:
			call = nil
		case record.EventReject:
			rp.rejects = append(rp.rejects, *ev)
			rp.lastRej = i
		case record.EventWrite, record.EventFallbackWrite:
			rp.write(ev, reply, call, original)
			rp.lastAt = i
		}
	}
	return rp
}

// write replays one write event.
func (rp *replay) write(ev, reply, call *record.Event, original map[string]string) {
	p := path.Clean(ev.Path)
	w := rp.files[p]
	if w == nil {
		w = &written{path: p}
		if orig, ok := original[p]; ok {
			w.content, w.known = orig, true
		}
		rp.files[p] = w
		rp.order = append(rp.order, p)
	}
	rp.writes++
	w.writes++
	w.size, w.turn = ev.Bytes, ev.Turn
	w.fallback = ev.Kind == record.EventFallbackWrite
	// A cut reply is written as it was only by a workflow: an agent's
	// write ran from a tool call whose arguments were whole.
	w.cut = call == nil && reply != nil && reply.StopReason == model.StopLength
	w.noBlock = false
	var content string
	var ok bool
	switch {
	case call != nil:
		content, ok = toolContent(call, w)
	case reply != nil && reply.Reply != nil:
		var blocks int
		content, blocks, ok = replyContent(reply.Reply.Content, ev.Kind == record.EventFallbackWrite, ev.Bytes)
		w.noBlock = blocks == 0
	}
	w.content, w.known = content, ok && len(content) == ev.Bytes
}

// toolContent is what an agent's write_file or edit_file call put in w.
func toolContent(call *record.Event, w *written) (string, bool) {
	var args map[string]string
	if json.Unmarshal([]byte(call.Args), &args) != nil {
		return "", false
	}
	switch call.Tool {
	case trackfacts.WriteFile:
		c, ok := args["content"]
		return c, ok
	case trackfacts.EditFile:
		if !w.known || args["old"] == "" || strings.Count(w.content, args["old"]) != 1 {
			return "", false
		}
		return strings.Replace(w.content, args["old"], args["new"], 1), true
	}
	return "", false
}

// replyContent is what a workflow wrote from a reply: for the naive
// fallback its first code block, or the whole reply when it has none; for
// a FILE: reply the first code block after the FILE: line, or the text
// after that line when none follows. The candidate of that rule comes
// first, then every other reading (each block, the text after each FILE:
// line, the whole reply); the first of them of exactly size bytes is the
// one written. It also returns the number of code blocks in the reply.
func replyContent(text string, fallback bool, size int) (string, int, bool) {
	r := replytext.Parse(text)
	text, blocks, afterMark, rest := r.Text, r.Blocks, r.AfterMark, r.Rests
	var want []string
	switch {
	case fallback && len(blocks) > 0:
		want = append(want, blocks[0])
	case fallback:
		want = append(want, text)
	case len(afterMark) > 0:
		want = append(want, afterMark[0])
	default:
		want = append(want, rest...)
	}
	want = append(append(append(want, blocks...), rest...), text)
	i := slices.IndexFunc(want, func(c string) bool { return len(c) == size })
	if i < 0 {
		return "", len(blocks), false
	}
	return want[i], len(blocks), true
}

// unchanged reports whether the writes left every file as the task had
// it; false when a content is unknown.
func (rp *replay) unchanged(original map[string]string) bool {
	if rp.writes == 0 {
		return true
	}
	for _, w := range rp.files {
		orig, ok := original[w.path]
		if !w.known || !ok || w.content != orig {
			return false
		}
	}
	return true
}

// wrote reports whether the episode wrote file p.
func (rp *replay) wrote(p string) bool { _, ok := rp.files[p]; return ok }
