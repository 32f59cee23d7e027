package testrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"bench/sandbox"
)

// MaxOutput is how many bytes of a test run's output are kept.
const MaxOutput = 64 << 10

// MaxChannel is how many bytes of a test run's result channel are kept.
const MaxChannel = 8 << 20

// waitDelay bounds how long RunWith waits for output or exit after it killed
// the process group.
const waitDelay = 2 * time.Second

// ErrNoCommand is returned for an empty argv.
var ErrNoCommand = errors.New("testrun: empty test command")

// RunWith runs argv in dir with a scrubbed environment, in its own
// process group, killing the group after timeout (0 means no timeout) or
// when ctx is cancelled, and parses the output. Every process left in the
// group is killed when the command exits. opts give the sandbox and the
// folders it opens besides the workspace and the run's private temporary
// folder (TMPDIR, removed afterwards).
//
// It returns an error when the command cannot be started (a missing
// interpreter is one clear sentence) and, together with the partial Result,
// when ctx was cancelled; a timeout is not an error but Result.TimedOut. In sandbox.On mode it fails, before
// starting anything, when the sandbox is not available. A deadline of ctx
// that passes first (the episode's) is a timeout too; a cancelled ctx is
// an interruption. A Go run (opts.Go) warms its build cache first, once
// per process (warmGo), before the timeout starts.
func RunWith(ctx context.Context, dir string, argv []string, timeout time.Duration, opts Options) (Result, error) {
	if opts.Go != nil && len(argv) > 0 {
		if bin, err := exec.LookPath(argv[0]); err == nil {
			warmGo(ctx, bin, opts.Go.Cache, opts.Go.Share)
		}
	}
	runCtx, cancel := withTimeout(ctx, timeout)
	defer cancel()
	if opts.Go != nil {
		return opts.Go.run(ctx, runCtx, dir, argv, timeout, opts)
	}
	res, err := runStep(ctx, runCtx, step{ws: dir, cwd: dir, argv: argv, opts: opts})
	if err != nil {
		return res, err
	}
	Parse(res.Output).apply(&res)
	return finish(ctx, res, timeout, dir)
}

// withTimeout is ctx with the timeout, when there is one.
func withTimeout(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout)
	}
	return context.WithCancel(ctx)
}

// step is one process of a test run: argv run in cwd, a folder of the
// workspace ws (writable, and the tests' HOME), with env added to
// Environ(ws) and to privateDirs of its temporary folder.
type step struct {
	ws, cwd string
	argv    []string
	env     []string
	opts    Options
}

// runStep runs one step until it exits or runCtx ends, in the sandbox of
// its options, with a private temporary folder. It returns an error only
// when the command could not start (a timeout before it did is a timeout).
func runStep(ctx, runCtx context.Context, s step) (Result, error) {
	if len(s.argv) == 0 {
		return Result{}, ErrNoCommand
	}
	argv := s.argv
	bin, err := exec.LookPath(argv[0])
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return Result{}, fmt.Errorf("%s is needed on PATH to run the tasks' tests, and it was not found", argv[0])
		}
		return Result{}, fmt.Errorf("test command %s: %w", argv[0], err)
	}
	if real := Interpreter(bin); real != bin {
		bin, argv = real, append([]string{real}, argv[1:]...)
	}
	tmp, err := os.MkdirTemp("", "bench-tmp-")
	if err != nil {
		return Result{}, fmt.Errorf("a private temporary folder for the tests: %w", err)
	}
	forget := Scratch(tmp)
	defer func() {
		removeAll(tmp)
		forget()
	}()
	cmd := command(runCtx, bin, argv, s.cwd)
	cmd.Env = append(append(Environ(s.ws), privateDirs(tmp)...), s.env...)
	opts := s.opts
	if opts.Go != nil {
		if cmd.Env, opts, err = opts.Go.prepare(cmd.Env, opts, tmp); err != nil {
			return Result{}, fmt.Errorf("the Go build cache: %w", err)
		}
	}
	layers, err := sandbox.Apply(cmd, opts.Sandbox, opts.spec(bin, s.ws, tmp))
	if err != nil {
		return Result{Sandbox: layers}, err
	}
	start := time.Now()
	output, cut, channel, waitErr, err := execute(cmd, opts.Channel)
	if err != nil && timedOut(ctx, runCtx) {
		// The time ran out before the tests could start: a timeout, not a broken command.
		return Result{Sandbox: layers, TimedOut: true, ExitCode: -1}, nil
	}
	if err != nil {
		return Result{Sandbox: layers}, fmt.Errorf("starting %s in %s: %w", argv[0], s.cwd, err)
	}
	res := Result{ExitCode: cmd.ProcessState.ExitCode(), Duration: time.Since(start), Output: output, CutBytes: cut, Sandbox: layers, Channel: channel}
	res.TimedOut = timedOut(ctx, runCtx)
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) && !res.TimedOut && ctx.Err() == nil {
		return res, fmt.Errorf("running %s: %w", argv[0], waitErr)
	}
	return res, nil
}

// finish says in res's output why the tests stopped, when a time limit
// stopped them, normalises the output against the workspace ws, and
// returns the error of an interruption.
func finish(ctx context.Context, res Result, timeout time.Duration, ws string) (Result, error) {
	if res.TimedOut {
		limit := fmt.Sprintf("after the %s timeout", timeout)
		if ctx.Err() == context.DeadlineExceeded {
			limit = "at the episode's time limit (--episode-timeout)"
		}
		if res.Duration == 0 {
			res.Output += fmt.Sprintf("[bench: the tests were stopped %s, before they started]\n", limit)
		} else {
			res.Output += fmt.Sprintf("\n[bench: the tests were stopped %s]\n", limit)
		}
	}
	res.Normalized = Normalize(res.Output, ws)
	if errors.Is(ctx.Err(), context.Canceled) {
		return res, fmt.Errorf("test run interrupted: %w", ctx.Err())
	}
	return res, nil
}

// timedOut reports whether runCtx ended by a deadline (its own timeout or
// one of ctx, the caller's), not because ctx was cancelled.
func timedOut(ctx, runCtx context.Context) bool {
	return errors.Is(runCtx.Err(), context.DeadlineExceeded) && !errors.Is(ctx.Err(), context.Canceled)
}

// command builds the test command: its own process group, killed whole
// when ctx ends, with the scrubbed environment.
func command(ctx context.Context, bin string, argv []string, dir string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Env = Environ(dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = waitDelay
	return cmd
}

// execute starts cmd, collects its capped output (and, with channel, what
// it writes to file descriptor 3) and kills what is left of its process
// group when it exits. err is non-nil only when cmd could not start;
// waitErr is what Wait said.
func execute(cmd *exec.Cmd, channel bool) (output string, cut int, results string, waitErr, err error) {
	// Our own pipes: Wait returns when the test process exits, even if a
	// grandchild still holds a write end; we then kill the group.
	out, err := newPipe(cmd, MaxOutput)
	if err != nil {
		return "", 0, "", nil, fmt.Errorf("test output pipe: %w", err)
	}
	cmd.Stdout, cmd.Stderr = out.w, out.w
	pipes := []*pipe{out}
	if channel {
		ch, err := newPipe(cmd, MaxChannel)
		if err != nil {
			out.close()
			return "", 0, "", nil, fmt.Errorf("test result pipe: %w", err)
		}
		cmd.ExtraFiles = []*os.File{ch.w}
		pipes = append(pipes, ch)
	}
	if err := cmd.Start(); err != nil {
		for _, p := range pipes {
			p.close()
		}
		return "", 0, "", nil, err
	}
	register(cmd.Process.Pid)
	defer unregister(cmd.Process.Pid)
	for _, p := range pipes {
		p.start()
	}
	waitErr = cmd.Wait()
	killGroup(cmd)
	late := make(chan struct{}) // closed when a process that left the group may still hold a pipe
	timer := time.AfterFunc(waitDelay, func() { close(late) })
	defer timer.Stop()
	for _, p := range pipes {
		p.finish(late)
	}
	output, cut = out.buf.String()
	if channel {
		results, _ = pipes[1].buf.String()
	}
	return output, cut, results, waitErr, nil
}

// pipe is one pipe from a test process into a capped buffer.
type pipe struct {
	r, w   *os.File
	buf    *capBuffer
	copied chan struct{}
}

func newPipe(cmd *exec.Cmd, max int) (*pipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	return &pipe{r: r, w: w, buf: newCapBuffer(max), copied: make(chan struct{})}, nil
}

// start closes our copy of the write end and copies what comes in.
func (p *pipe) start() {
	p.w.Close()
	go func() {
		io.Copy(p.buf, p.r)
		close(p.copied)
	}()
}

// finish waits for the copy until late is closed, then closes the read end.
func (p *pipe) finish(late <-chan struct{}) {
	select {
	case <-p.copied:
	case <-late:
	}
	p.r.Close()
	<-p.copied
}

func (p *pipe) close() {
	p.r.Close()
	p.w.Close()
}

// killGroup kills every process in the command's process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// Environ returns the environment a test run gets besides its private
// folders (privateDirs): PATH from the parent, HOME set to the workspace,
// a UTF-8 locale and settings that keep Python deterministic and the
// workspace free of bytecode. Nothing else of the parent's environment
// (tokens, keys) is passed on.
//
// PYTHONNOUSERSITE is set because HOME is the workspace: Python would
// otherwise run any .pth file or usercustomize.py under
// $HOME/.local/lib/pythonX.Y/site-packages at start-up, a place the model
// can write, before the pristine tests run.
func Environ(dir string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{
		"PATH=" + path,
		"HOME=" + dir,
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
		"PYTHONDONTWRITEBYTECODE=1",
		"PYTHONHASHSEED=0",
		"PYTHONNOUSERSITE=1",
	}
}

// privateDirs sends what tools keep for the user, their configuration
// and caches (the go command's telemetry counters and its default build
// cache, platformdirs), into the run's private temporary folder tmp,
// which is removed after it, rather than under HOME, which is the
// workspace: the tests, the next step and grading would see it there.
func privateDirs(tmp string) []string {
	return []string{"TMPDIR=" + tmp, "XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"), "XDG_CACHE_HOME=" + filepath.Join(tmp, "cache")}
}
