package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/model/tokens"
)

func tokensCommand() *cli.Command {
	return &cli.Command{
		Name:      "tokens",
		Usage:     "count the tokens of a file (or stdin) with the offline estimate",
		ArgsUsage: "[FILE|-]",
		Description: "Counts with the tiktoken encoding, offline; a server's own count may differ.\n\n" +
			"Examples:\n" +
			"  bench tokens tasks/slugify/repo/slugify.py\n" +
			"  echo hello | bench tokens --encoding o200k_base",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "encoding", Value: tokens.Default, Usage: "token encoding: " + tokens.CL100K + " or " + tokens.O200K},
		},
		Action: func(c *cli.Context) error {
			args, err := posArgs(c)
			if err != nil {
				return err
			}
			if len(args) > 1 {
				return usagef("tokens takes one FILE (or - for stdin), got %d arguments", len(args))
			}
			if err := tokens.Check(c.String("encoding")); err != nil {
				return usage(err)
			}
			counter, err := tokens.New(c.String("encoding"))
			if err != nil {
				return err
			}
			text, err := tokens.ReadText(strings.Join(args, ""), c.App.Reader)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.App.Writer, counter.Count(text))
			return err
		},
	}
}
