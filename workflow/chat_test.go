package workflow

import (
	"testing"

	"bench/model"
	"bench/runner/track"
)

// sentRequest is what a scripted model was sent: its messages and tool names.
type sentRequest struct {
	Messages []model.Message
	Tools    []string
}

// Last is the request's last message.
func (r sentRequest) Last() model.Message { return r.Messages[len(r.Messages)-1] }

// onFixture returns an environment on a copy of the named task whose model
// answers with the texts that script computes from it, in order, and a
// function returning the requests the model was sent.
func onFixture(t *testing.T, name string, script func(env *track.Env) []string) (*track.Env, *fakeRecorder, func() []sentRequest) {
	t.Helper()
	env, rec := fixture(t, name, nil)
	chat := &fakeChatter{}
	for _, s := range script(env) {
		chat.script = append(chat.script, say(text(s)))
	}
	env.Model = chat
	return env, rec, func() []sentRequest {
		var out []sentRequest
		for _, r := range chat.requests {
			sr := sentRequest{Messages: r.Messages}
			for _, tool := range r.Tools {
				sr.Tools = append(sr.Tools, tool.Name)
			}
			out = append(out, sr)
		}
		return out
	}
}
