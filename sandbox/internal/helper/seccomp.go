package helper

import (
	"syscall"
	"unsafe"
)

// ResolveUnixABI is the first Landlock ABI that restricts connecting to
// pathname unix sockets (LANDLOCK_ACCESS_FS_RESOLVE_UNIX). Before it a
// test could connect to any socket whose path it knows (Docker's, the
// D-Bus session bus, an ssh agent), since connect(2) opens no file.
const ResolveUnixABI = 9

// seccomp(2) and BPF constants (linux/seccomp.h, linux/filter.h).
const (
	prSetSeccomp       = 22 // PR_SET_SECCOMP
	seccompModeFilter  = 2  // SECCOMP_MODE_FILTER
	retAllow           = 0x7fff0000
	retErrno           = 0x00050000
	bpfLdAbsW          = syscall.BPF_LD | syscall.BPF_W | syscall.BPF_ABS
	bpfJeq             = syscall.BPF_JMP | syscall.BPF_JEQ | syscall.BPF_K
	bpfJset            = syscall.BPF_JMP | syscall.BPF_JSET | syscall.BPF_K
	bpfAnd             = syscall.BPF_ALU | syscall.BPF_AND | syscall.BPF_K
	bpfRet             = syscall.BPF_RET | syscall.BPF_K
	offNr              = 0  // seccomp_data.nr
	offArch            = 4  // seccomp_data.arch
	offArg0            = 16 // seccomp_data.args[0], low half on little-endian
	offArg1            = 24
	x32Bit             = 0x40000000 // __X32_SYSCALL_BIT
	sysIOUringSetup    = 425        // the same number on every architecture
	sysIOUringRegister = 427
	sockTypeMask       = 0xf
)

// denyUnixSockets installs noUnixSockets on the calling thread, which must
// have no_new_privs set; it is inherited by what the thread executes.
func denyUnixSockets() error {
	f := noUnixSockets()
	if len(f) == 0 {
		return nil // an architecture the filter is not written for: best effort
	}
	prog := syscall.SockFprog{Len: uint16(len(f)), Filter: &f[0]}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return failure("installing the seccomp filter against unix sockets", e)
	}
	return nil
}
