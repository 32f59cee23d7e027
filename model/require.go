package model

// Require reports, as an *Error, what stops a run from using the model
// Inspect described: the model is missing (ErrModelNotFound), or think is
// asked of a model that cannot think (ErrNoThinking), or tools of one
// without tool support (ErrNoToolSupport). It returns nil when the model
// will do; capabilities the server does not report are assumed present.
func (info ServerInfo) Require(think, tools bool) error {
	e := &Error{Backend: info.Backend, Host: info.Host, Model: info.Model}
	switch {
	case !info.HasModel:
		e.Kind = ErrModelNotFound
	case think && !info.Thinking:
		e.Kind = ErrNoThinking
	case tools && !info.Tools:
		e.Kind = ErrNoToolSupport
	default:
		return nil
	}
	return e
}
