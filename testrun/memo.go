package testrun

import "sync"

// memo holds, per key, what a function computed once in this process;
// callers of the same key wait for the first.
type memo[V any] struct{ m sync.Map } // key → *memoEntry[V]

type memoEntry[V any] struct {
	once sync.Once
	v    V
}

// get returns the value of key, computed by fn on its first call.
func (m *memo[V]) get(key string, fn func() V) V {
	e, _ := m.m.LoadOrStore(key, new(memoEntry[V]))
	entry := e.(*memoEntry[V])
	entry.once.Do(func() { entry.v = fn() })
	return entry.v
}
