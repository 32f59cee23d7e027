package main

import (
	"flag"

	"github.com/urfave/cli/v2"
)

// copyOnApply is a bool flag whose Apply works on a copy. urfave/cli shares
// one HelpFlag and one VersionFlag among all apps and writes into them on
// every parse: harmless in a process that runs one app, a data race when
// the tests run several at once.
type copyOnApply struct{ cli.BoolFlag }

// Apply registers a copy of the flag on set, leaving the shared one untouched.
func (f *copyOnApply) Apply(set *flag.FlagSet) error {
	c := f.BoolFlag
	return c.Apply(set)
}

func init() {
	cli.HelpFlag = &copyOnApply{cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}}
	cli.VersionFlag = &copyOnApply{cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version", DisableDefaultText: true}}
}
