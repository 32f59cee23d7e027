package helper

// auditArch is AUDIT_ARCH_AARCH64, the ABI the seccomp filter allows.
const auditArch = 0xc00000b7
