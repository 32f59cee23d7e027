//go:build !amd64 && !arm64

package helper

import "syscall"

// noUnixSockets is empty where the seccomp filter is not written: there
// unix sockets stay reachable on kernels before Landlock ABI 9.
func noUnixSockets() []syscall.SockFilter { return nil }
