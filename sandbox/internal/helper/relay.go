package helper

import (
	"os"
	"syscall"
	"unsafe"
)

// prSetDumpable is prctl's PR_SET_DUMPABLE.
const prSetDumpable = 4

// relay ends this process as the second stage ended: with its exit code,
// or killed by the same signal, so that the caller sees what it would
// have seen of the command itself. It does not return.
func relay(ws syscall.WaitStatus) {
	switch {
	case ws.Exited():
		os.Exit(ws.ExitStatus())
	case ws.Signaled():
		die(ws.Signal())
	}
	os.Exit(Exit)
}

// die kills this process with sig. The Go runtime catches most signals,
// and ignores a SIGSEGV that a kill sends, so sig's action is reset to
// the default first; no core of the helper is dumped (the command's own
// was, where the system dumps cores). SIGKILL ends it should sig not.
func die(sig syscall.Signal) {
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
	var dfl [4]uint64 // struct sigaction: SIG_DFL, no flags, no restorer, empty mask
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	set := uint64(1) << (uint(sig) - 1)
	syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 1 /* SIG_UNBLOCK */, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	// To this thread, which handles it as the call returns: a signal to
	// the process could go to another thread while this one went on.
	syscall.Tgkill(os.Getpid(), syscall.Gettid(), sig)
	syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {} // the signal is on its way
}
