package testrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"bench/sandbox"
)

// MaxOutput is how many bytes of a test run's output are kept.
const MaxOutput = 64 << 10

// MaxChannel is how many bytes of a test run's result channel are kept.
const MaxChannel = 8 << 20

// waitDelay bounds how long Run waits for output or exit after it killed
// the process group.
const waitDelay = 2 * time.Second

// ErrNoCommand is returned for an empty argv.
var ErrNoCommand = errors.New("testrun: empty test command")

// Run runs argv in dir with a scrubbed environment, in its own process
// group, killing the group after timeout (0 means no timeout) or when ctx
// is cancelled, and parses the output. Every process left in the group is
// killed when the command exits.
//
// It returns an error when the command cannot be started (a missing
// interpreter is one clear sentence) and, together with the partial Result,
// when ctx was cancelled; a timeout is not an error but Result.TimedOut.
func Run(ctx context.Context, dir string, argv []string, timeout time.Duration) (Result, error) {
	return RunWith(ctx, dir, argv, timeout, Options{Sandbox: DefaultSandbox()})
}

// RunWith is Run with explicit options: the sandbox and the folders it
// opens besides the workspace and the run's private temporary folder
// (TMPDIR, removed afterwards). In sandbox.On mode it fails, before
// starting anything, when the sandbox is not available.
func RunWith(ctx context.Context, dir string, argv []string, timeout time.Duration, opts Options) (Result, error) {
	if len(argv) == 0 {
		return Result{}, ErrNoCommand
	}
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
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()

	tmp, err := os.MkdirTemp("", "bench-tmp-")
	if err != nil {
		return Result{}, fmt.Errorf("a private temporary folder for the tests: %w", err)
	}
	forget := Scratch(tmp)
	defer func() {
		removeAll(tmp)
		forget()
	}()
	cmd := command(runCtx, bin, argv, dir)
	cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
	if opts.Go != nil {
		if cmd.Env, opts, err = opts.Go.prepare(cmd.Env, opts, tmp); err != nil {
			return Result{}, fmt.Errorf("the Go build cache: %w", err)
		}
	}
	layers, err := sandbox.Apply(cmd, opts.Sandbox, opts.spec(bin, dir, tmp))
	if err != nil {
		return Result{Sandbox: layers}, err
	}
	start := time.Now()
	output, cut, channel, waitErr, err := execute(cmd, opts.Channel)
	if err != nil && timedOut(ctx, runCtx) {
		// The timeout passed before the tests could start: a timeout, not a broken command.
		return Result{Sandbox: layers, TimedOut: true, ExitCode: -1,
			Output: fmt.Sprintf("[bench: the tests were stopped after the %s timeout, before they started]\n", timeout)}, nil
	}
	if err != nil {
		return Result{Sandbox: layers}, fmt.Errorf("starting %s in %s: %w", argv[0], dir, err)
	}
	res := Result{ExitCode: cmd.ProcessState.ExitCode(), Duration: time.Since(start), Output: output, CutBytes: cut, Sandbox: layers, Channel: channel}
	res.TimedOut = timedOut(ctx, runCtx)
	if opts.Go != nil {
		opts.Go.apply(&res)
	} else {
		Parse(res.Output).apply(&res)
	}
	if res.TimedOut {
		res.Output += fmt.Sprintf("\n[bench: the tests were stopped after the %s timeout]\n", timeout)
	}
	res.Normalized = Normalize(res.Output, dir)
	if ctx.Err() != nil {
		return res, fmt.Errorf("test run interrupted: %w", ctx.Err())
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) && !res.TimedOut {
		return res, fmt.Errorf("running %s: %w", argv[0], waitErr)
	}
	return res, nil
}

// timedOut reports whether runCtx ended by its own timeout, not because
// ctx, the caller's, was cancelled.
func timedOut(ctx, runCtx context.Context) bool {
	return errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
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

// Environ returns the whole environment a test run gets: PATH from the
// parent, HOME set to the workspace, a UTF-8 locale and settings that keep
// Python deterministic and the workspace free of bytecode. Nothing else of
// the parent's environment (tokens, keys) is passed on.
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
