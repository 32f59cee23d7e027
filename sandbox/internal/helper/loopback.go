package helper

import (
	"syscall"
	"unsafe"
)

// ifreqFlags is struct ifreq with the flags member (SIOCGIFFLAGS).
type ifreqFlags struct {
	Name  [syscall.IFNAMSIZ]byte
	Flags uint16
	_     [22]byte
}

// loopbackUp brings up "lo" in a fresh network namespace, where it starts
// down, so that tests can use 127.0.0.1 among themselves.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var req ifreqFlags
	copy(req.Name[:], "lo")
	if err := ioctl(fd, syscall.SIOCGIFFLAGS, unsafe.Pointer(&req)); err != nil {
		return err
	}
	req.Flags |= syscall.IFF_UP
	return ioctl(fd, syscall.SIOCSIFFLAGS, unsafe.Pointer(&req))
}

func ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}
