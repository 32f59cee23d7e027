//go:build amd64 || arm64

package helper

import "syscall"

func stmt(code uint16, k uint32) syscall.SockFilter { return syscall.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf uint8) syscall.SockFilter {
	return syscall.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// noUnixSockets is a seccomp filter for kernels whose Landlock cannot
// restrict pathname unix sockets: socket(AF_UNIX, …) and datagram
// socketpairs (whose sendto(2) can name any socket) fail with EACCES,
// io_uring (which makes and connects sockets past the filter) with ENOSYS,
// and so does every call of another ABI (i386, x32). Stream socketpairs
// (asyncio's self-pipe, multiprocessing.Pipe) still work.
func noUnixSockets() []syscall.SockFilter {
	eacces, enosys := retErrno|uint32(syscall.EACCES), retErrno|uint32(syscall.ENOSYS)
	return []syscall.SockFilter{
		stmt(bpfLdAbsW, offArch),
		jump(bpfJeq, auditArch, 1, 0),
		stmt(bpfRet, enosys),
		stmt(bpfLdAbsW, offNr),
		jump(bpfJset, x32Bit, 0, 1),
		stmt(bpfRet, enosys),
		jump(bpfJeq, sysIOUringSetup, 2, 0),
		jump(bpfJeq, sysIOUringSetup+1, 1, 0),
		jump(bpfJeq, sysIOUringRegister, 0, 1),
		stmt(bpfRet, enosys),
		jump(bpfJeq, syscall.SYS_SOCKET, 0, 4),
		stmt(bpfLdAbsW, offArg0),
		jump(bpfJeq, syscall.AF_UNIX, 0, 1),
		stmt(bpfRet, eacces),
		stmt(bpfRet, retAllow),
		jump(bpfJeq, syscall.SYS_SOCKETPAIR, 0, 4),
		stmt(bpfLdAbsW, offArg1),
		stmt(bpfAnd, sockTypeMask),
		jump(bpfJeq, syscall.SOCK_DGRAM, 0, 1),
		stmt(bpfRet, eacces),
		stmt(bpfRet, retAllow),
	}
}
