// Command bench measures, on real coding tasks and a local model, when a
// fixed workflow is enough and when a task needs an agent loop.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	err := run(os.Args, os.Stdout, os.Stderr)
	os.Exit(exitCode(err, os.Stderr))
}

// run builds the CLI and runs it; it never calls os.Exit, so tests can drive it.
func run(args []string, stdout, stderr io.Writer) error {
	return newApp(stdout, stderr).Run(args)
}

func newApp(stdout, stderr io.Writer) *cli.App {
	return &cli.App{
		Name:           "bench",
		Usage:          "measure when a fixed workflow is enough and when a coding task needs an agent loop",
		Version:        version(),
		Writer:         stdout,
		ErrWriter:      stderr,
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
	}
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
		fmt.Fprintln(stderr, "bench:", msg)
	}
	return code
}
