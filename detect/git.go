package detect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// GitTimeout bounds each git command the snapshot runs.
const GitTimeout = 2500 * time.Millisecond

// gitRunner runs git for the snapshot and the replay.
type gitRunner struct {
	env     []string // the whole environment; nil means the process's, minus repository overrides
	timeout time.Duration
}

// repoOverrides are variables that would point git at another repository
// than the one asked about (they are set inside git hooks, for example).
var repoOverrides = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_COMMON_DIR=", "GIT_OBJECT_DIRECTORY=", "GIT_NAMESPACE="}

// defaultGit runs git with the user's environment, so their own git
// configuration applies, as it would for an agent they start.
func defaultGit() gitRunner {
	var env []string
	for _, kv := range os.Environ() {
		if !hasAnyPrefix(kv, repoOverrides) {
			env = append(env, kv)
		}
	}
	return gitRunner{env: env, timeout: GitTimeout}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// run runs `git -C dir args...` and returns its standard output with
// surrounding white space trimmed. A non-zero exit, a missing git or the
// timeout is an error.
func (g gitRunner) run(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), g.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = g.env
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", fmt.Errorf("%w: %s", err, msg)
		}
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}
