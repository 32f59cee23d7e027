// Command bench measures, on real coding tasks and a local model, when a
// fixed workflow is enough and when a task needs an agent loop.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"bench/sandbox"

	"github.com/urfave/cli/v2"

	"bench/internal/inert"
	"bench/internal/suggest"
)

func main() {
	sandbox.Init() // in the sandbox helper (bench re-executed), this applies the sandbox and never returns
	err := run(os.Args, os.Stdout, os.Stderr)
	os.Exit(exitCode(err, os.Stderr))
}

// run builds the CLI and runs it; it never calls os.Exit, so tests can drive it.
func run(args []string, stdout, stderr io.Writer) error {
	app := newApp(stdout, stderr)
	app.Metadata = map[string]any{"args": args}
	err := app.Run(args)
	// urfave/cli answers `bench help nope` with its own wording and exit code 3.
	if topic, ok := strings.CutPrefix(fmt.Sprint(err), "No help topic for "); ok {
		return unknownCommandError(app.Commands, strings.Trim(topic, "'"))
	}
	return err
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:           "bench",
		Usage:          "measure when a fixed workflow is enough and when a coding task needs an agent loop",
		Version:        version(),
		Writer:         inert.Writer{W: stdout}, // every command prints through inert: no quoted byte moves a terminal
		ErrWriter:      inert.Writer{W: stderr},
		ExitErrHandler: func(*cli.Context, error) {}, // main decides the exit code
		Commands: []*cli.Command{
			versionCommand(),
			tasksCommand(),
			predictCommand(),
			checkCommand(),
			reportCommand(),
			compareCommand(),
			detectCommand(),
			showCommand(),
			tokensCommand(),
			doctorCommand(),
			runCommand(),
		},
		Action:       unknownCommand,
		OnUsageError: usageError,
	}
	for _, c := range app.Commands {
		guardCommand(c)
	}
	return app
}

// guardCommand makes a command (and its subcommands) answer a bad flag with
// one sentence instead of its whole help, and refuse a flag given twice. It
// also keeps urfave/cli from adding its one global help subcommand to each
// command, which every run would write into (a data race between CLIs run
// at once, as the tests do); --help and `bench help COMMAND` still work.
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
	return fmt.Errorf("unknown command %q%s; bench --help lists the commands", name, suggest.DidYouMean(name, names, "bench "))
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
	return fmt.Errorf("%s; %s --help lists the flags", msg, commandPath(c))
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
// "bench tasks verify".
func commandPath(c *cli.Context) string {
	var names []string
	for _, lc := range c.Lineage() {
		if lc.Command != nil && lc.Command.Name != "" && lc.Command.Name != c.App.Name {
			names = append([]string{lc.Command.Name}, names...)
		}
	}
	return strings.Join(append([]string{"bench"}, names...), " ")
}

// exitCode prints err (if it has a message) and returns the process exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	code := 1
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if msg := err.Error(); msg != "" {
		fmt.Fprintln(stderr, "bench:", inert.Text(msg)) // an error can quote a server's or a model's bytes
	}
	return code
}
