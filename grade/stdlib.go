package grade

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
)

var stdlibCache sync.Map // interpreter name → map[string]bool

// stdlibNames returns sys.stdlib_module_names of the interpreter of the
// test command (asked once per process), or an empty set when it cannot
// be asked (then only shadowNames are refused).
func stdlibNames(ctx context.Context, cmd []string) map[string]bool {
	if len(cmd) == 0 {
		return map[string]bool{}
	}
	if v, ok := stdlibCache.Load(cmd[0]); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	c := exec.CommandContext(ctx, cmd[0], "-I", "-c", "import sys; print('\\n'.join(sorted(sys.stdlib_module_names)))")
	c.Dir = "/"
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/"}
	if out, err := c.Output(); err == nil {
		for _, n := range strings.Fields(string(out)) {
			names[n] = true
		}
		stdlibCache.Store(cmd[0], names)
	}
	return names
}
