package helper

// auditArch is AUDIT_ARCH_X86_64, the ABI the seccomp filter allows.
const auditArch = 0xc000003e
