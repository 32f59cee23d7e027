// This file holds how commands read their command line beyond what
// urfave/cli does: flags after positional arguments, and a flag given twice.

package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// repeatedFlag refuses a single-valued flag given twice on the command line
// (`--parallel 2 --parallel 3`), which would otherwise keep the last one silently.
func repeatedFlag(c *cli.Context) error {
	single := map[string]string{} // every name of a single-valued flag → its main name
	for _, f := range c.Command.Flags {
		switch f.(type) {
		case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag, *cli.UintSliceFlag, *cli.Uint64SliceFlag:
			continue
		}
		for _, n := range f.Names() {
			single[n] = f.Names()[0]
		}
	}
	seen := map[string]bool{}
	for _, a := range commandArgs(c) {
		if a == "--" {
			break
		}
		name, ok := strings.CutPrefix(a, "-")
		if !ok {
			continue
		}
		name, _ = strings.CutPrefix(name, "-")
		name, _, _ = strings.Cut(name, "=")
		main, ok := single[name]
		if !ok {
			continue
		}
		if seen[main] {
			return fmt.Errorf("--%s is given twice; give it once", main)
		}
		seen[main] = true
	}
	return nil
}

// commandArgs is the command line after the command's own name: its flags
// and arguments as typed.
func commandArgs(c *cli.Context) []string {
	args := os.Args
	if c.App.Metadata != nil {
		if a, ok := c.App.Metadata["args"].([]string); ok {
			args = a
		}
	}
	for i, a := range args {
		if i > 0 && a == c.Command.Name {
			return args[i+1:]
		}
	}
	return nil
}

// argsWithTrailingFlags returns the positional arguments of c, applying any
// of the command's flags that follow them (`bench report DIR --format json`):
// urfave/cli stops parsing flags at the first positional argument.
func argsWithTrailingFlags(c *cli.Context) ([]string, error) {
	args := c.Args().Slice()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		name, ok := strings.CutPrefix(a, "--")
		if !ok {
			name, ok = strings.CutPrefix(a, "-")
		}
		if !ok || name == "" {
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(name, "=")
		if !hasFlag(c, name) {
			return nil, fmt.Errorf("%s for bench %s", unknownFlag(c, name), c.Command.Name)
		}
		if !hasValue && isBoolFlag(c, name) {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := c.Set(mainName(c, name), value); err != nil {
			return nil, fmt.Errorf("flag --%s: %w", name, err)
		}
	}
	return pos, nil
}

// isBoolFlag reports whether the command of c defines name as a boolean
// flag, which takes no value after it (`bench show DIR --full`).
func isBoolFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		if b, ok := f.(*cli.BoolFlag); ok && slices.Contains(b.Names(), name) {
			return true
		}
	}
	return false
}

// mainName is the first name of the flag called name (which may be an
// alias such as -f or --tasks): the name the command reads it by.
func mainName(c *cli.Context, name string) string {
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return f.Names()[0]
		}
	}
	return name
}

// hasFlag reports whether the command of c defines a flag called name.
func hasFlag(c *cli.Context, name string) bool {
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return true
		}
	}
	return false
}
