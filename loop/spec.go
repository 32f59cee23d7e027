package loop

import (
	"context"

	"bench/track"
)

// Spec is an agent track built on the loop: the tools it offers beside the
// agent's five, and what its system prompt says about them. The zero Spec
// is the agent track.
type Spec struct {
	Tools []Tool
	About string // a section of the system prompt on Tools, after the standing instruction; "" for none
}

// Tool is a tool a track adds to the agent's own.
type Tool struct {
	Name        string
	Description string
	Params      []Param
	// Run runs one call. An error is shown to the model as an "error: ..."
	// result, as for the agent's own tools; one wrapped by Stop ends the
	// episode instead.
	Run func(ctx context.Context, c Call) (string, error)
}

// Param is one string argument of a tool.
type Param struct {
	Name        string
	Description string
	Optional    bool // the model may leave it out; it is then ""
}

// Call is one call of an added tool: its arguments, each Param by name,
// and the episode's conversation, through which it reaches the episode
// (Conv.Env), records events and may ask a model (Conv.Aside).
type Call struct {
	Args map[string]string
	Conv *track.Conversation
}

// Stop marks a tool's error as one that ends the episode as a failed
// model call does (with exit reason error, or interrupted), rather than
// going back to the model: a failure of a model call the tool made, which
// is the server's or the harness's, never the agent's.
func Stop(err error) error { return stopError{err} }

// stopError is an error wrapped by Stop.
type stopError struct{ err error }

func (e stopError) Error() string { return e.err.Error() }
func (e stopError) Unwrap() error { return e.err }
