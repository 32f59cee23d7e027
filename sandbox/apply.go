package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"

	"bench/sandbox/internal/helper"
)

// ErrUnavailable is wrapped by the error Plan and Apply return in mode On
// when a layer is missing.
var ErrUnavailable = errors.New("the sandbox is not available")

// Plan returns the layers a test run gets under cfg on this machine, and
// an error (wrapping ErrUnavailable) when cfg is On and the file-system or
// the network layer is missing. The PID layer falls back to Pdeathsig.
func Plan(cfg Config) (Layers, error) {
	if cfg.mode() == Off {
		return Layers{FS: None, Net: None, PID: Pdeathsig}, nil
	}
	c := detect()
	l := Layers{FS: None, Net: None, PID: Pdeathsig}
	if c.userns {
		l.Net, l.PID = NetNS, PIDNS
	}
	if c.abi >= 1 && helperReady() {
		l.FS = Landlock
		if l.Net == None && c.abi >= 4 {
			l.Net = LandlockTCP
		}
	}
	if cfg.mode() == On && (l.FS == None || l.Net == None) {
		return l, fmt.Errorf("%w (--sandbox on): %s; bench doctor says why, or use --sandbox auto", ErrUnavailable, l)
	}
	return l, nil
}

// Apply makes cmd, already built (Path, Args, Dir, Env), run inside the
// sandbox that Plan(cfg) describes, and returns the layers. It sets
// cmd.SysProcAttr's Pdeathsig (SIGKILL), keeping what is there (Setpgid).
// With Landlock it routes cmd through the helper; from a caller with a
// large heap the helper also enters the namespaces, so that cmd itself is
// started plainly (os/exec then uses vfork, cheap from however large a
// caller: twoStages); otherwise it sets the namespaces on cmd.
func Apply(cmd *exec.Cmd, cfg Config, spec Spec) (Layers, error) {
	l, err := Plan(cfg)
	if err != nil {
		return l, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	switch {
	case l.FS == Landlock:
		return l, throughHelper(cmd, l, spec)
	case l.PID == PIDNS:
		setNamespaces(cmd.SysProcAttr)
	}
	return l, nil
}

// throughHelper rewrites cmd to start the helper (chosenHelper), which enters
// the namespaces (with the PID layer), applies Landlock and then executes
// the original command.
func throughHelper(cmd *exec.Cmd, l Layers, spec Spec) error {
	exe := chosenHelper()
	if exe.path == "" {
		return errors.New("sandbox: no helper: bench's own executable cannot be found")
	}
	rw := append([]string{spec.Dir}, spec.Writable...)
	if spec.Tmp != "" {
		rw = append(rw, spec.Tmp)
	}
	args := helper.Args(carve(append(systemDirs(), spec.ReadOnly...)), nonEmpty(rw), l.Net == NetNS, cmd.Path, cmd.Args)
	switch {
	case l.PID != PIDNS:
	case twoStages():
		args = helper.Enter(ownNamespaces(), args)
	default:
		setNamespaces(cmd.SysProcAttr)
	}
	cmd.Path = exe.path
	cmd.Args = append([]string{exe.path}, args...)
	return nil
}

// systemDirs are the read-only system folders every run gets.
func systemDirs() []string {
	return []string{"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc"}
}

func nonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}
