package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// buildVersion is set with -ldflags "-X main.buildVersion=v1.2.3"; otherwise
// the module version or VCS revision from the build info is used.
var buildVersion = ""

func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print bench's version",
		ArgsUsage: " ",
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("version takes no arguments, got %q", c.Args().First())
			}
			_, err := fmt.Fprintln(c.App.Writer, versionLine())
			return err
		},
	}
}

// versionLine is what `bench version` and `bench --version` both print:
// the version, the platform and the Go release it was built with.
func versionLine() string {
	return fmt.Sprintf("bench %s %s/%s %s", version(), runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func init() {
	cli.VersionPrinter = func(c *cli.Context) { fmt.Fprintln(c.App.Writer, versionLine()) }
}
