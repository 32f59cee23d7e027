package verify

import (
	"context"
	"runtime"
	"sync"

	"bench/tasks"
)

// All runs the oracle check (Task) of every task, several tasks at
// once, and returns the verifications in the order of ts. A task that cache
// holds as verified, by its checksum, is not checked again; one that passes
// is added to cache.
func All(ctx context.Context, ts []tasks.Task, cache Cache) []Verification {
	out := make([]Verification, len(ts))
	next := make(chan int)
	go func() {
		defer close(next)
		for i := range ts {
			next <- i
		}
	}()
	var wg sync.WaitGroup
	for range min(len(ts), runtime.NumCPU()) {
		wg.Go(func() {
			for i := range next {
				out[i] = verifyCached(ctx, ts[i], cache)
			}
		})
	}
	wg.Wait()
	return out
}

// verifyCached is Task, answered from cache when it can be.
func verifyCached(ctx context.Context, t tasks.Task, cache Cache) Verification {
	sum, err := t.Checksum()
	if err != nil {
		return Task(ctx, t) // Task reports the checksum's failure
	}
	if v, ok := cache.load(t, sum); ok {
		return v
	}
	v := Task(ctx, t)
	if v.OK() {
		cache.store(t, sum, v)
	}
	return v
}
