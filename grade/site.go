package grade

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"sync"
	"time"

	"bench/testrun"
)

// siteAsked holds, per interpreter, the path its site module makes.
var siteAsked sync.Map // interpreter path → *siteDirs

type siteDirs struct {
	once sync.Once
	path []string
}

// sitePath returns sys.path as interpreter bin makes it at start-up
// without a user site (-s): the standard library, then its site-packages
// folders and what their .pth files add, venvs as the interpreter handles
// them. It is asked once per process; nil when it cannot be. Grading starts
// Python with -S, so that no .pth line runs, and its runner puts the
// entries missing under -S on the path itself.
func sitePath(ctx context.Context, bin string) []string {
	v, _ := siteAsked.LoadOrStore(bin, &siteDirs{})
	d := v.(*siteDirs)
	d.once.Do(func() { d.path = askSitePath(ctx, bin) })
	return d.path
}

// askSitePath runs bin once, with its site module, to print sys.path.
func askSitePath(ctx context.Context, bin string) []string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-s", "-c", "import json, sys; print(json.dumps(sys.path[1:]))")
	cmd.Dir = os.TempDir()
	cmd.Env = testrun.Environ(cmd.Dir)
	out, err := cmd.Output()
	var path []string
	if err != nil || json.Unmarshal(out, &path) != nil {
		return nil
	}
	return path
}
