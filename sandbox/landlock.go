package sandbox

import (
	"fmt"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// prSetNoNewPrivs is PR_SET_NO_NEW_PRIVS.
const prSetNoNewPrivs = 38

// restrictAndExec applies Landlock to the calling thread for good (read and
// execute under ro, everything under rw, the usual device files, no TCP
// bind or connect from ABI 4 on, no connecting to unix sockets made
// outside from ABI 9 on; older kernels get what they support, and before
// ABI 9 a seccomp filter denies unix sockets instead) and executes bin on
// that same thread. It returns only on failure.
//
// Only one thread is restricted, right before execve replaces every
// thread: restricting all threads (go-landlock's Restrict) needs a signal
// broadcast that hangs when the helper is PID 1 of a PID namespace.
func restrictAndExec(ro, rw []string, bin string, argv, env []string) error {
	fd, flags, err := landlock.V9.BestEffort().NewRulesetFD(
		landlock.RODirs(ro...).IgnoreIfMissing(),
		landlock.RWDirs(rw...).WithRefer(),
		landlock.RWFiles("/dev/null", "/dev/zero", "/dev/full").IgnoreIfMissing(),
		landlock.ROFiles("/dev/urandom", "/dev/random").IgnoreIfMissing(),
	)
	if err != nil {
		return fmt.Errorf("building the Landlock rules: %w", err)
	}
	runtime.LockOSThread() // never unlocked: the thread is restricted, then replaced
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if abi, _ := ll.LandlockGetABIVersion(); abi < resolveUnixABI {
		if err := denyUnixSockets(); err != nil {
			return err
		}
	}
	if fd >= 0 {
		if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
			return fmt.Errorf("landlock_restrict_self: %w", err)
		}
		syscall.Close(fd)
	}
	err = syscall.Exec(bin, argv, env)
	return fmt.Errorf("executing %s: %w", bin, err)
}
