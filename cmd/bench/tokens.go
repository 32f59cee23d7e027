package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"unicode/utf8"

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
			args, err := argsWithTrailingFlags(c)
			if err != nil {
				return err
			}
			if len(args) > 1 {
				return usagef("tokens takes one FILE (or - for stdin), got %d arguments", len(args))
			}
			counter, err := tokens.New(c.String("encoding"))
			if err != nil {
				return err
			}
			text, err := readInput(c, strings.Join(args, ""))
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.App.Writer, counter.Count(string(text)))
			return err
		},
	}
}

// readInput reads the named file, or the app's stdin for "" and "-".
func readInput(c *cli.Context, name string) ([]byte, error) {
	if name == "" || name == "-" {
		r := c.App.Reader
		if r == nil {
			r = os.Stdin
		}
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("cannot read stdin: %w", err)
		}
		return b, checkText("stdin", b)
	}
	info, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s does not exist; give a text file, or - to read stdin", name)
	case err == nil && info.IsDir():
		return nil, fmt.Errorf("%s is a folder; give a text file, or - to read stdin", name)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, err)
	}
	return b, checkText(name, b)
}

// checkText refuses input that is not text: token counts of binary data
// mean nothing.
func checkText(name string, b []byte) error {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return fmt.Errorf("%s is not text (it holds NUL bytes or invalid UTF-8); bench tokens counts the tokens of text", name)
	}
	return nil
}
