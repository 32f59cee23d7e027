package workspace

import "testing"

// BenchmarkWriteFile measures one confined, atomic write of a small file in
// a nested folder that already exists.
func BenchmarkWriteFile(b *testing.B) {
	ws, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	data := []byte("def add(a, b):\n    return a + b\n")
	b.ReportAllocs()
	for b.Loop() {
		if err := ws.WriteFile("pkg/sub/new_file.py", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFile measures one confined read of a small file.
func BenchmarkReadFile(b *testing.B) {
	ws, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	if err := ws.WriteFile("pkg/m.py", []byte("x = 1\n")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ws.ReadFile("pkg/m.py"); err != nil {
			b.Fatal(err)
		}
	}
}
