package preflight

import "bench/sandbox"

// sandboxChecks says, one line per layer, what the sandbox around the test
// runs can do on this machine (sandbox.Probe). A missing layer fails only
// with --sandbox on; with auto it passes, and its text and fix say what is
// missing.
func sandboxChecks(mode sandbox.Mode) []Check {
	if mode == sandbox.Off {
		return []Check{{Name: Sandbox, Status: Skipped, Text: "off (--sandbox off): tests run with only their process group and timeout"}}
	}
	var checks []Check
	for _, p := range sandbox.Probe() {
		c := Check{Name: Sandbox, Status: Pass, Text: p.Layer + ": " + p.Detail}
		if !p.OK {
			c.Text += " (fix: " + p.Fix + ")"
			if mode == sandbox.On {
				c.Status, c.Text, c.Fix = Fail, p.Layer+": "+p.Detail, p.Fix
			}
		}
		checks = append(checks, c)
	}
	return checks
}
