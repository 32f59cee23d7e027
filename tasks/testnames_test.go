package tasks

import (
	"slices"
	"strings"
	"testing"
)

// A test file may hold a line longer than any scanner buffer (a long
// literal of test data): the names after it must still be found, or the
// task's test count is silently short.
func TestMethodNamesPastALongLine(t *testing.T) {
	src := "class T(unittest.TestCase):\n" +
		"    def test_before(self):\n" +
		"        data = '" + strings.Repeat("x", 2<<20) + "'\n" +
		"    def test_after(self):\n" +
		"        pass\n"
	if got, want := methodNames([]byte(src)), []string{"test_before", "test_after"}; !slices.Equal(got, want) {
		t.Errorf("methodNames = %q, want %q", got, want)
	}
}

// Windows line ends must not hide a test: "def test_a(self):\r" is a test.
func TestMethodNamesCRLF(t *testing.T) {
	src := "class T(unittest.TestCase):\r\n    def test_a(self):\r\n        pass\r\n\r\n    def test_b(self):\r\n        pass\r\n"
	if got, want := methodNames([]byte(src)), []string{"test_a", "test_b"}; !slices.Equal(got, want) {
		t.Errorf("methodNames = %q, want %q", got, want)
	}
}
