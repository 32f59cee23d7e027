package helper

import (
	"embed"
	"io/fs"
	"os"
)

// sources is this package's Go source, its tests left out: what a helper
// built on its own (bench-sandbox) must share with bench to serve it
// (TestIdentityIsEverySourceFile checks that the list is whole).
//
//go:embed enter.go helper.go identity.go landlock.go loopback.go relay.go seccomp.go seccomp_amd64.go seccomp_arm64.go seccomp_filter.go seccomp_other.go
var sources embed.FS

// idWord, right after the marker, asks the helper for its Identity.
const idWord = "id"

// Identity is this package's source, file by file (name, NUL, length,
// content): two executables with the same Identity serve as the same
// helper. bench asks a separately built helper for it (Marker, then "id")
// before it uses it, so that a helper left from another version of bench is
// never used.
func Identity() []byte {
	var out []byte
	names, _ := fs.Glob(sources, "*.go")
	for _, name := range names {
		data, _ := sources.ReadFile(name)
		out = append(out, name...)
		out = append(out, 0)
		out = append(out, itoa(uint64(len(data)))...)
		out = append(out, 0)
		out = append(out, data...)
	}
	return out
}

// tellIdentity writes Identity to standard output and exits 0.
func tellIdentity() {
	if _, err := os.Stdout.Write(Identity()); err != nil {
		os.Exit(Exit)
	}
	os.Exit(0)
}
