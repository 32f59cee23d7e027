package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"bench/model/modeltest"
	"bench/record"
)

// BenchmarkFaultsReply256MB runs one workflow episode in a bench process
// against a fake Ollama that streams a 256 MB reply, and reports the
// process's peak RSS and wall time: with the default reply cap (the reply
// is cut at 256 KiB) and with the cap raised past the reply (it is read
// whole, held, estimated on its start and written into the trajectory).
//
//	go test -run '^$' -bench FaultsReply256MB -benchtime 1x ./cmd/bench/
func BenchmarkFaultsReply256MB(b *testing.B) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"default-cap", nil},
		{"cap-512MiB", []string{"--max-reply-bytes", "536870912"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			srv := modeltest.NewOllama(b, modeltest.Always(modeltest.Huge(256<<20)))
			var rss, wall float64
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "run")
				args := append([]string{"run", "--host", srv.URL, "--tracks", "workflow", "--tasks", "leap_year", "--seeds", "1", "--out", dir}, c.args...)
				cmd := exec.Command(os.Args[0], args...)
				cmd.Env = append(os.Environ(), benchAsSubprocess+"=1")
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("bench run: %v\n%s", err, out)
				}
				wall += time.Since(start).Seconds()
				rss = max(rss, float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)/1024) // KiB on Linux
				if data, err := record.Read(dir); err != nil || len(data.Episodes) != 1 {
					b.Fatalf("%v, %+v", err, data.Episodes)
				}
			}
			b.ReportMetric(rss, "peak-RSS-MB")
			b.ReportMetric(wall/float64(b.N), "s/episode")
		})
	}
}
