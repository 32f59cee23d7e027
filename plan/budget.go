package plan

import (
	"fmt"

	"bench/loop"
	"bench/record"
	"bench/trackfacts"
)

// Budget is what bounds one episode's model calls and reply tokens, as
// run.json records it: 0 in MaxTurns, Tries or MaxToolCalls is the
// track's default, 0 in MaxTokens is no cap on a reply, 0 in TokenLimit no
// token budget.
type Budget struct {
	MaxTurns     int // agent and hybrid: turns before the final call without tools
	Tries        int // workflow-retry: attempts
	MaxTokens    int // the cap on one reply's tokens (num_predict / max_tokens)
	TokenLimit   int // agent and hybrid: the tokens an episode may spend
	MaxToolCalls int // agent and hybrid: the tool calls run from one reply
}

// Bound is the most one episode may spend: model calls, and reply tokens
// unless no cap bounds them (Unbounded: --max-tokens 0 and no token budget).
type Bound struct {
	Calls       int
	ReplyTokens int
	Unbounded   bool
}

// Add sums two bounds.
func (b Bound) Add(o Bound) Bound {
	return Bound{Calls: b.Calls + o.Calls, ReplyTokens: b.ReplyTokens + o.ReplyTokens, Unbounded: b.Unbounded || o.Unbounded}
}

// Max is the larger of two bounds, field by field: the most one episode of
// either may spend.
func (b Bound) Max(o Bound) Bound {
	return Bound{Calls: max(b.Calls, o.Calls), ReplyTokens: max(b.ReplyTokens, o.ReplyTokens), Unbounded: b.Unbounded || o.Unbounded}
}

// Times is n episodes of b.
func (b Bound) Times(n int) Bound {
	return Bound{Calls: b.Calls * n, ReplyTokens: b.ReplyTokens * n, Unbounded: b.Unbounded && n > 0}
}

// EpisodeBound is the most one episode of the named track may spend under
// b, as the tracks spend it:
//
//   - workflow: one call;
//   - workflow-retry: one call per try;
//   - agent: one call per turn and the final call without tools;
//   - hybrid: the agent's calls, and one more per run_workflow call, of
//     which a reply may ask up to MaxToolCalls;
//   - oracle: none.
//
// Each reply is at most MaxTokens. The token budget of agent and hybrid is
// checked after each turn, so an episode stops once it has spent
// TokenLimit: its replies stay under TokenLimit plus the last turn's.
func EpisodeBound(track string, b Budget) (Bound, error) {
	turns := cmpOr(b.MaxTurns, record.DefaultMaxTurns)
	perReply := cmpOr(b.MaxToolCalls, loop.DefaultMaxToolCalls)
	var calls, lastTurn int // lastTurn: the calls one turn may make
	switch track {
	case trackfacts.Workflow:
		calls = 1
	case trackfacts.WorkflowRetry:
		calls = cmpOr(b.Tries, record.DefaultTries)
	case trackfacts.Agent:
		calls, lastTurn = turns+1, 1
	case trackfacts.Hybrid:
		calls, lastTurn = turns+1+turns*perReply, 1+perReply
	case trackfacts.Oracle:
		return Bound{}, nil
	default:
		return Bound{}, fmt.Errorf("no budget is known for track %q", track)
	}
	if b.MaxTokens <= 0 { // no reply is capped: the last turn of a budget is not either
		return Bound{Calls: calls, Unbounded: true}, nil
	}
	tokens := calls * b.MaxTokens
	if lastTurn > 0 && b.TokenLimit > 0 {
		tokens = min(tokens, b.TokenLimit-1+lastTurn*b.MaxTokens)
	}
	return Bound{Calls: calls, ReplyTokens: tokens}, nil
}

// cmpOr is v, or def when v is 0 or less (a budget's "the default").
func cmpOr(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}
