package helper

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Landlock's system calls (the same numbers on every architecture) and
// constants (linux/landlock.h).
const (
	sysCreateRuleset     = 444
	sysAddRule           = 445
	sysRestrictSelf      = 446
	createRulesetVersion = 1
	rulePathBeneath      = 1
	prSetNoNewPrivs      = 38
	oPath                = 0x200000 // O_PATH on x86, arm and the generic ABI
)

// Landlock's file-system access rights.
const (
	fsExecute = 1 << iota
	fsWriteFile
	fsReadFile
	fsReadDir
	fsRemoveDir
	fsRemoveFile
	fsMakeChar
	fsMakeDir
	fsMakeReg
	fsMakeSock
	fsMakeFifo
	fsMakeBlock
	fsMakeSym
	fsRefer       // ABI 2
	fsTruncate    // ABI 3
	fsIoctlDev    // ABI 5
	fsResolveUnix // ABI 9
)

// The rights a rule grants: read (and execute) a folder, also write it,
// and the subsets that apply to single files. Not granted anywhere:
// device ioctls and connecting to unix sockets made outside.
const (
	readRights       = fsExecute | fsReadFile | fsReadDir
	writeRights      = fsWriteFile | fsRemoveDir | fsRemoveFile | fsMakeChar | fsMakeDir | fsMakeReg | fsMakeSock | fsMakeFifo | fsMakeBlock | fsMakeSym | fsTruncate | fsRefer
	fileRights       = fsExecute | fsWriteFile | fsReadFile | fsTruncate
	netBindConnTCP   = 1<<2 - 1 // ABI 4
	scopedUnixSignal = 1<<2 - 1 // ABI 6: abstract unix sockets, signals
)

// rulesetAttr is struct landlock_ruleset_attr.
type rulesetAttr struct {
	handledFS, handledNet, scoped uint64
}

// pathBeneath is struct landlock_path_beneath_attr (packed: the kernel
// reads its first 12 bytes).
type pathBeneath struct {
	allowed  uint64
	parentFD int32
	_        int32
}

// ABI returns the kernel's Landlock ABI version, 0 without Landlock.
func ABI() int {
	v, _ := ABIVersion()
	return v
}

// ABIVersion returns the kernel's Landlock ABI version, or 0 and the
// reason (ENOSYS: no Landlock; EOPNOTSUPP: built in but turned off).
func ABIVersion() (int, error) {
	v, _, e := syscall.RawSyscall(sysCreateRuleset, 0, 0, createRulesetVersion)
	if e != 0 {
		return 0, e
	}
	return int(v), nil
}

// handled is what a ruleset restricts on Landlock ABI abi: every right
// the kernel knows, up to ABI 9.
func handled(abi int) rulesetAttr {
	var a rulesetAttr
	switch {
	case abi >= 9:
		a.handledFS = fsResolveUnix<<1 - 1
	case abi >= 5:
		a.handledFS = fsIoctlDev<<1 - 1
	case abi >= 3:
		a.handledFS = fsTruncate<<1 - 1
	case abi == 2:
		a.handledFS = fsRefer<<1 - 1
	case abi == 1:
		a.handledFS = fsMakeSym<<1 - 1
	}
	if abi >= 4 {
		a.handledNet = netBindConnTCP
	}
	if abi >= 6 {
		a.scoped = scopedUnixSignal
	}
	return a
}

// rule is one kind of path rule: its rights, and whether a missing path
// is skipped.
type rule struct {
	paths         []string
	rights        uint64
	ignoreMissing bool
}

// rules are the helper's path rules: the read-only and read-write folders
// of the spec, and the usual device files.
func rules(s spec) []rule {
	return []rule{
		{s.ro, readRights, true},
		{s.rw, readRights | writeRights, false},
		{[]string{"/dev/null", "/dev/zero", "/dev/full"}, fileRights, true},
		{[]string{"/dev/urandom", "/dev/random"}, fileRights &^ (fsWriteFile | fsTruncate), true},
	}
}

// ruleset builds the Landlock ruleset for s, or returns -1 without
// Landlock. On ABI 1, which cannot grant moving files between folders,
// the workspace is writable without it (stricter, not looser).
func ruleset(s spec, abi int) (int, error) {
	if abi < 1 {
		return -1, nil
	}
	attr := handled(abi)
	fd, _, e := syscall.RawSyscall(sysCreateRuleset, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return -1, failure("landlock_create_ruleset", e)
	}
	for _, r := range rules(s) {
		if err := addRule(int(fd), r, r.rights&attr.handledFS); err != nil {
			syscall.Close(int(fd))
			return -1, err
		}
	}
	return int(fd), nil
}

// addRule adds one path-beneath rule per path of r.
func addRule(fd int, r rule, allowed uint64) error {
	for _, p := range r.paths {
		pfd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
		if err == syscall.ENOENT && r.ignoreMissing {
			continue
		}
		if err != nil {
			return failure("opening "+p+" for a Landlock rule", errno(err))
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(pfd, &st); err != nil {
			syscall.Close(pfd)
			return failure("checking "+p+" for a Landlock rule", errno(err))
		}
		rights := allowed
		if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			rights &= fileRights // a rule on a file grants only what applies to files
		}
		attr := pathBeneath{allowed: rights, parentFD: int32(pfd)}
		_, _, e := syscall.RawSyscall6(sysAddRule, uintptr(fd), rulePathBeneath, uintptr(unsafe.Pointer(&attr)), 0, 0, 0)
		syscall.Close(pfd)
		if e != 0 {
			return failure("landlock_add_rule for "+p, e)
		}
	}
	return nil
}

// restrictAndExec restricts the calling thread for good (Landlock, and
// before ABI 9 a seccomp filter against unix sockets) and executes the
// command on that same thread. It returns only on failure.
//
// Only one thread is restricted, right before execve replaces every
// thread: restricting all threads needs a signal broadcast that hangs
// when the helper is PID 1 of a PID namespace.
func restrictAndExec(s spec, env []string) error {
	abi := ABI()
	fd, err := ruleset(s, abi)
	if err != nil {
		return err
	}
	runtime.LockOSThread() // never unlocked: the thread is restricted, then replaced
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		return failure("prctl(PR_SET_NO_NEW_PRIVS)", e)
	}
	if abi < ResolveUnixABI {
		if err := denyUnixSockets(); err != nil {
			return err
		}
	}
	if fd >= 0 {
		if _, _, e := syscall.RawSyscall(sysRestrictSelf, uintptr(fd), 0, 0); e != 0 {
			return failure("landlock_restrict_self", e)
		}
		syscall.Close(fd)
	}
	err = syscall.Exec(s.bin, s.argv, env)
	return failure("executing "+s.bin, errno(err))
}
