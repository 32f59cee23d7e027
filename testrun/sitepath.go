package testrun

import "encoding/json"

// sitePaths remembers, per interpreter, the path its site module makes.
var sitePaths memo[[]string]

// SitePath returns sys.path as the interpreter bin makes it at start-up
// without a user site (-s), but its first entry (the script's folder): the
// standard library, then the site-packages folders and what their .pth
// files add, venvs as the interpreter handles them. It is asked once per
// process (askPython); nil when it cannot be. Grading starts Python with
// -S, so that no .pth line runs, and its runner puts the entries missing
// under -S on the path itself.
func SitePath(bin string) []string {
	return sitePaths.get(bin, func() []string {
		out, err := askPython(bin, "-s", "-c", "import json, sys; print(json.dumps(sys.path[1:]))")
		var path []string
		if err != nil || json.Unmarshal([]byte(out), &path) != nil {
			return nil
		}
		return path
	})
}
