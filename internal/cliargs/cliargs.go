// Package cliargs holds every adjustment bench makes to urfave/cli/v2, each
// for something the library does not do itself:
//
//   - a mistake on the command line is one sentence that names the nearest
//     right word and where the help is (the library prints the whole help),
//     and exits 2 (OnUsageError and the app's Action are the library's hooks);
//   - `bench help NOPE` is answered as `bench NOPE` is: the library's help
//     command prints its own wording and exits 3, so bench has its own help
//     command, which shows the library's help for a known command;
//   - a single-valued flag given twice is refused (the library keeps the last);
//   - flags after positional arguments are applied (`bench report DIR
//     --format json`; the library stops at the first argument);
//   - the library's shared HelpFlag and VersionFlag, and the help command it
//     adds to every command, are written on every parse: a data race when
//     tests run several apps at once, so bench gives each parse a copy and
//     hides the per-command help command (--help and `bench help COMMAND`
//     still work).
//
// A command reads its positional arguments with Args, which applies the
// flags that follow them.
package cliargs

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"bench/internal/cliexit"
	"bench/internal/suggest"
)

// Adjust installs the adjustments on app and on each of its commands. The
// check of a flag given twice reads the command line from
// app.Metadata["args"] when it holds one (a test's), else from os.Args.
func Adjust(app *cli.App) {
	app.Commands = append(app.Commands, helpCommand())
	app.Flags = append(app.Flags, cli.HelpFlag) // the library adds it only beside its own help command
	app.Action = unknownCommand
	app.OnUsageError = usageError
	for _, c := range app.Commands {
		guardCommand(c)
	}
}

// guardCommand makes a command (and its subcommands) answer a bad flag with
// one sentence, refuse a flag given twice, and go without the library's
// per-command help command.
func guardCommand(c *cli.Command) {
	c.OnUsageError = usageError
	c.HideHelpCommand = true
	if c.Action != nil {
		action := c.Action
		c.Action = func(ctx *cli.Context) error {
			if err := repeatedFlag(ctx); err != nil {
				return err
			}
			return action(ctx)
		}
	}
	for _, sub := range c.Subcommands {
		guardCommand(sub)
	}
}

// helpCommand is `bench help [COMMAND]`: the library's help of the app or
// of a known command, and an unknown command's usage error.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Aliases:   []string{"h"},
		Usage:     "show the commands, or one command's help",
		ArgsUsage: "[COMMAND]",
		HideHelp:  true,
		Action: func(c *cli.Context) error {
			switch name := c.Args().First(); {
			case c.NArg() > 1:
				return cliexit.Usagef("help takes one command, got %d arguments", c.NArg())
			case name == "":
				return cli.ShowAppHelp(c)
			case c.App.Command(name) == nil:
				return unknownCommandError(c.App.Commands, name)
			default:
				return cli.ShowCommandHelp(c, name)
			}
		},
	}
}

// unknownCommand is the app's action: help without arguments, else an
// unknown command.
func unknownCommand(c *cli.Context) error {
	if !c.Args().Present() {
		return cli.ShowAppHelp(c)
	}
	return unknownCommandError(c.App.Commands, c.Args().First())
}

// unknownCommandError names the unknown command, the nearest known one,
// and where the commands are listed.
func unknownCommandError(commands []*cli.Command, name string) error {
	var names []string
	for _, c := range commands {
		names = append(names, c.Names()...)
	}
	return cliexit.Usagef("unknown command %q%s; bench --help lists the commands", name, suggest.DidYouMean(name, names, "bench "))
}

// usageError turns a flag parsing error into one sentence that says where
// to find the flags.
func usageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = unknownFlag(c, strings.TrimPrefix(name, "-"))
	}
	msg = strings.TrimSuffix(strings.Replace(msg, " for flag -", " for --", 1), ": parse error")
	msg = oneDashFlag.ReplaceAllString(msg, "$1--$2") // the flag package's "-out": bench spells long flags --out
	return cliexit.Usagef("%s; %s --help lists the flags", msg, commandPath(c))
}

// oneDashFlag is a long flag as Go's flag package writes it, with one dash.
var oneDashFlag = regexp.MustCompile(`(^|[ :])-([a-zA-Z][a-zA-Z0-9-]+)\b`)

// unknownFlag says that --name is not a flag of c's command (or of the
// app), and names the nearest one that is.
func unknownFlag(c *cli.Context, name string) string {
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" {
		flags = c.Command.Flags
	}
	var names []string
	for _, f := range flags {
		for _, n := range f.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	names = append(names, "help")
	return "unknown flag --" + name + suggest.DidYouMean(name, names, "--")
}

// commandPath is the command line that names c's command, such as
// "bench tasks verify" (the library's HelpName), or "bench" for the app.
func commandPath(c *cli.Context) string {
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		return c.Command.HelpName
	}
	return c.App.HelpName
}

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
			return cliexit.Usagef("--%s is given twice; give it once", main)
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

// Args returns the positional arguments of c, applying any of the
// command's flags that follow them (`bench report DIR --format json`):
// urfave/cli stops parsing flags at the first positional argument.
func Args(c *cli.Context) ([]string, error) {
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
		f := lookupFlag(c, name)
		if f == nil {
			return nil, cliexit.Usagef("%s for bench %s", unknownFlag(c, name), c.Command.Name)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool && !hasValue {
			value, hasValue = "true", true // a boolean flag takes no value after it (`bench show DIR --full`)
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, cliexit.Usagef("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := c.Set(f.Names()[0], value); err != nil { // the name the command reads it by
			return nil, cliexit.Usagef("flag --%s: %w", name, err)
		}
	}
	return pos, nil
}

// lookupFlag is the flag of c's command called name (which may be an
// alias such as -f or --tasks), or nil.
func lookupFlag(c *cli.Context, name string) cli.Flag {
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// copyOnApply is a bool flag whose Apply works on a copy, leaving the
// library's shared HelpFlag and VersionFlag untouched.
type copyOnApply struct{ cli.BoolFlag }

// Apply registers a copy of the flag on set.
func (f *copyOnApply) Apply(set *flag.FlagSet) error {
	c := f.BoolFlag
	return c.Apply(set)
}

func init() {
	cli.HelpFlag = &copyOnApply{cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}}
	cli.VersionFlag = &copyOnApply{cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version", DisableDefaultText: true}}
}
