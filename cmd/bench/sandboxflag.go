package main

import (
	"github.com/urfave/cli/v2"

	"bench/sandbox"
)

// sandboxFlag is --sandbox, shared by run and doctor.
func sandboxFlag() cli.Flag {
	return &cli.StringFlag{Name: "sandbox", Value: string(sandbox.Auto),
		Usage: "confine every test run: auto (each layer the kernel allows, a warning for the rest), on (refuse to run without all of them) or off"}
}

// sandboxMode reads --sandbox.
func sandboxMode(c *cli.Context) (sandbox.Mode, error) {
	m, err := sandbox.ParseMode(c.String("sandbox"))
	return m, usage(err)
}
