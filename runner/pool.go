package runner

import (
	"context"
	"sync"

	"bench/record"
)

// Dispatch runs jobs on parallel workers, taking them in order, and calls
// done with each finished episode, one call at a time, in the order they
// finish. Once ctx is cancelled no further job starts; the jobs already
// running see the cancelled context and still report their episode.
// Dispatch returns when every started job has reported.
func Dispatch(ctx context.Context, jobs []Job, parallel int, run func(context.Context, Job) record.Episode, done func(record.Episode)) {
	if parallel < 1 {
		parallel = 1
	}
	queue := make(chan Job)
	go func() {
		defer close(queue)
		for _, j := range jobs {
			if ctx.Err() != nil {
				return
			}
			select {
			case queue <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for range parallel {
		wg.Go(func() {
			for j := range queue {
				if ctx.Err() != nil {
					continue // cancelled between hand-over and start: not started
				}
				ep := run(ctx, j)
				mu.Lock()
				done(ep)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
