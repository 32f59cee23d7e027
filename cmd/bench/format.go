// This file holds the --format flag (-f) that every command printing a
// table or data shares.

package main

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/suggest"
	"bench/internal/table"
)

// formatFlag is --format (short -f), accepting the given formats; the first is the default.
func formatFlag(formats ...string) cli.Flag {
	return &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: formats[0], Usage: "output format: " + strings.Join(formats, ", ")}
}

// pickFormat reads --format, accepting "md" for markdown, and refuses a
// format the command does not write.
func pickFormat(c *cli.Context, formats ...string) (string, error) {
	f := table.Normalize(c.String("format"))
	if f == "" {
		return formats[0], nil
	}
	if slices.Contains(formats, f) {
		return f, nil
	}
	return "", usagef("unknown --format %q%s: want %s", c.String("format"), suggest.DidYouMean(f, formats, ""), strings.Join(formats, ", "))
}
