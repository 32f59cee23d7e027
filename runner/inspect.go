package runner

import (
	"context"
	"sync"

	"bench/model"
)

// Inspection is what one server said about one model (model.Client's
// Inspect): the client made for it, the ServerInfo, or why it could not
// be asked.
type Inspection struct {
	Config model.Config
	Client model.Client // nil when it could not be made
	Info   model.ServerInfo
	Err    error // making the client, or asking the server
}

// Inspect asks every server of cfgs about its model at once, each within
// model.InspectTimeout, and returns what each said, in cfgs' order: the
// checks before a run cost one server's time, not the sum of them all.
func Inspect(ctx context.Context, cfgs []model.Config) []Inspection {
	out := make([]Inspection, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Go(func() { out[i] = inspectOne(ctx, cfg) })
	}
	wg.Wait()
	return out
}

// inspectOne makes the client of cfg and asks its server.
func inspectOne(ctx context.Context, cfg model.Config) Inspection {
	in := Inspection{Config: cfg}
	in.Client, in.Err = model.New(cfg)
	if in.Err != nil {
		return in
	}
	ictx, cancel := context.WithTimeout(ctx, model.InspectTimeout)
	defer cancel()
	in.Info, in.Err = in.Client.Inspect(ictx)
	return in
}
