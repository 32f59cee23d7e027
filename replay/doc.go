// Package replay re-executes a recorded run without a model: the model's
// side of every episode comes from its trajectory (each reply, tool call
// and token count as recorded, in order), and everything else runs fresh
// (the workspace, the tools, the tests, the grading, the sandbox). No model
// server is needed or contacted.
//
// # Reading a recording
//
// Open reads a run folder: run.json, episodes.jsonl and the trajectory of
// every finished episode. A trajectory that is missing, torn, cut short
// (no end event), has a gap in its sequence numbers, holds fewer or more
// model calls than its episode says, or was changed after the episode
// ended (its SHA-256 differs from the one episodes.jsonl holds) is refused
// with a message naming the file and what is missing. An episode the
// recording lost to the infrastructure or that was interrupted is not
// replayed (Source.Skipped): its recording ends inside a call no model
// answered. A task whose checksum differs from the current task's is
// listed in Source.Changed; the caller warns and replays it anyway.
//
// # Playing an episode
//
// A Player serves one episode. It is the episode's model.Chatter (for the
// track's own calls and for the hybrid track's inner workflow call alike),
// and Player.Watch wraps the trajectory the runner gives the track, so that
// the player sees every fresh event before it is written. The fresh events
// are matched against the recorded ones call by call: every request event
// is matched to the next recorded request, and the events between two
// requests (test runs, tool calls and results, writes, rejects) are
// compared in order. A difference is a record.Divergence: it is noted and
// the episode goes on. Player.Finish compares the grading verdict and the
// episode's sums with the recording and sets the episode's Replay (a
// record.Replay): whether it replayed identically, how many steps
// differed, and the first.
//
// # When the conversation cannot follow
//
// The recorded reply to a request answers the messages of that request.
// The player keeps serving while a request differs only in a prompt (a
// user or system message: the workflow's test output, the retry's
// feedback, the system prompt): the reply is replayed and the fresh side
// goes on with it, so that an edited task is graded on the recorded fix.
// It stops the conversation, with the exit reason record.ExitDiverged,
// when:
//
//   - a tool result in the request changed (the recorded next call is the
//     agent's decision on a result it no longer gets);
//   - the request is of another conversation than the recorded one (the
//     agent's own call where the recording has the hybrid's run_workflow
//     call, or the other way round), or its messages differ in number,
//     roles or tool names;
//   - the fresh track asks for more calls than were recorded;
//   - the fresh track ends by itself (done, max_turns, token_budget) with
//     recorded calls it never asked for (fewer calls).
//
// Chat then returns a *DivergedError, which ends the track as a failed
// model call does; the watched trajectory's end event and Player.Finish
// give the episode the exit reason record.ExitDiverged and the step where
// it stopped. A recorded model call that failed with the model's own error
// (error kind "model") is replayed as that failure.
package replay
