package workflow

import (
	"testing"

	"bench/model"
	"bench/model/modeltest"
	"bench/track"
	"bench/track/tracktest"
)

// sentRequest is what a scripted model was sent: its messages and tool names.
type sentRequest struct {
	Messages []model.Message
	Tools    []string
}

// Last is the request's last message.
func (r sentRequest) Last() model.Message { return r.Messages[len(r.Messages)-1] }

// ollama is the real Ollama client talking to a fake server playing script.
func ollama(t *testing.T, script ...modeltest.Reply) (model.Chatter, *modeltest.Server) {
	srv := modeltest.NewOllama(t, script...)
	return srv.Client(t), srv
}

// onFixture returns an environment on a copy of the named task whose model,
// the real Ollama client on a fake server, answers with the texts that
// script computes from it, in order; and a function returning the requests
// the server received.
func onFixture(t *testing.T, name string, script func(env *track.Env) []string) (*track.Env, *tracktest.FakeRecorder, func() []sentRequest) {
	t.Helper()
	env, rec := tracktest.Fixture(t, name, nil)
	var replies []modeltest.Reply
	for _, s := range script(env) {
		replies = append(replies, modeltest.Text(s))
	}
	chat, srv := ollama(t, replies...)
	env.Model = chat
	return env, rec, func() []sentRequest {
		var out []sentRequest
		for _, r := range srv.Requests() {
			out = append(out, sentRequest{Messages: r.Messages, Tools: r.Tools})
		}
		return out
	}
}
