// Package integration holds bench's tests against the real Ollama server
// (v0.24.0 with the tiny random-weight models `tiny` and `tinytools`) that
// ../shared/ollama provides beside a clone. The tests drive the built bench
// binary as a user would; this file only finds and starts the server.
//
// Where the server is missing the tests skip with a printed reason, unless
// BENCH_OLLAMA_REQUIRED=1, when they fail. BENCH_OLLAMA_DIR points at the
// folder holding `start` when it is not a sibling `shared/ollama` of the
// module root or of a folder above it.
package integration

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Environment variables that steer the suite.
const (
	EnvDir      = "BENCH_OLLAMA_DIR"      // the folder holding the start script
	EnvRequired = "BENCH_OLLAMA_REQUIRED" // "1": a missing server fails the suite
)

// FindStart returns the path of the server's start script: $BENCH_OLLAMA_DIR/start
// when that variable is set, else the first shared/ollama/start found beside
// moduleRoot or beside one of the folders above it.
func FindStart(moduleRoot string) (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		start := filepath.Join(dir, "start")
		if !isFile(start) {
			return "", fmt.Errorf("%s=%s has no start script", EnvDir, dir)
		}
		return start, nil
	}
	dir, err := filepath.Abs(moduleRoot)
	if err != nil {
		return "", err
	}
	for {
		start := filepath.Join(filepath.Dir(dir), "shared", "ollama", "start")
		if isFile(start) {
			return start, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no shared/ollama/start beside %s or any folder above it (set %s to its folder)", moduleRoot, EnvDir)
		}
		dir = parent
	}
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// Server is a running Ollama server started by its start script.
type Server struct {
	URL string // http://127.0.0.1:PORT
	PID int
	Log string // the server's log file
}

// Start runs the start script with dir as its work folder and returns the
// server it started. A watchdog stops the server when the process whose
// id is owner ends, so a test binary that panics or times out leaves no
// server behind.
func Start(script, dir string, owner int) (*Server, error) {
	cmd := exec.Command(script, dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	s := &Server{Log: filepath.Join(dir, "server.log")}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), "=")
		switch key {
		case "OLLAMA_URL":
			s.URL = value
		case "OLLAMA_PID":
			s.PID, _ = strconv.Atoi(value)
		}
	}
	if s.URL == "" || s.PID <= 0 {
		return nil, fmt.Errorf("%s printed no OLLAMA_URL and OLLAMA_PID: %q", script, out)
	}
	watch := exec.Command("sh", "-c", `while kill -0 "$1" 2>/dev/null; do sleep 1; done; kill "$2" 2>/dev/null`,
		"watchdog", strconv.Itoa(owner), strconv.Itoa(s.PID))
	watch.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := watch.Start(); err != nil {
		s.Stop()
		return nil, fmt.Errorf("starting the server's watchdog: %w", err)
	}
	go watch.Wait() //nolint:errcheck // the watchdog's exit says nothing
	return s, nil
}

// Stop ends the server: SIGTERM (it stops its model runners), then SIGKILL
// if it is still there after five seconds.
func (s *Server) Stop() error {
	if err := syscall.Kill(s.PID, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(s.PID, 0) != nil {
			return nil
		}
	}
	return syscall.Kill(s.PID, syscall.SIGKILL)
}
