package exefile

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// writeAndRun writes n scripts with write while other goroutines start
// processes without pause (parallel tests), runs each at once, and
// returns how many failed to start with ETXTBSY.
func writeAndRun(t *testing.T, n int, write func(path string, data []byte)) int {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					exec.Command("true").Run()
				}
			}
		})
	}
	defer wg.Wait()
	defer close(stop)
	busy := 0
	dir := t.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprint(i))
		write(p, []byte("#!/bin/sh\nexit 0\n"))
		err := exec.Command(p).Run()
		if errors.Is(err, syscall.ETXTBSY) {
			busy++
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return busy
}

// TestWrittenScriptsStartBesideForks: scripts written by Write start even
// while other goroutines fork without pause. (Written by os.WriteFile,
// a few in a hundred fail with "text file busy" here.)
func TestWrittenScriptsStartBesideForks(t *testing.T) {
	if busy := writeAndRun(t, 50, func(p string, data []byte) { Write(t, p, data) }); busy > 0 {
		t.Errorf("%d of 50 scripts written by Write could not start: text file busy", busy)
	}
}

// TestCopiedScriptsStartBesideForks is TestWrittenScriptsStartBesideForks
// for Copy.
func TestCopiedScriptsStartBesideForks(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	if err := os.WriteFile(src, []byte("#!/bin/sh\nexit 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if busy := writeAndRun(t, 50, func(p string, _ []byte) { Copy(t, src, p) }); busy > 0 {
		t.Errorf("%d of 50 scripts copied by Copy could not start: text file busy", busy)
	}
}

// TestUnguardedWritesCanBeBusy shows that the stress of the tests above
// reaches the fault they guard against: os.WriteFile alone gives some
// scripts that cannot start. Full mode only: it is a check of the check.
func TestUnguardedWritesCanBeBusy(t *testing.T) {
	if testing.Short() {
		t.Skip("full mode only: a check that the stress above can fail")
	}
	unguarded := func(p string, data []byte) {
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for batch := range 60 {
		if busy := writeAndRun(t, 50, unguarded); busy > 0 {
			t.Logf("%d of the first %d scripts written by os.WriteFile could not start", busy, 50*(batch+1))
			return
		}
	}
	t.Error("none of 3,000 scripts written by os.WriteFile was busy: the stress does not reach the fault")
}
