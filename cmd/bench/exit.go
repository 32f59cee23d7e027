package main

import (
	"bench/internal/cliargs"
	"bench/internal/cliexit"
)

// The exit codes and usage errors of package cliexit, and the positional
// arguments as package cliargs reads them, by the short names the
// commands use.
const (
	exitFailure = cliexit.Failure
	exitUsage   = cliexit.Usage
)

var (
	usagef   = cliexit.Usagef
	usage    = cliexit.UsageOf
	exitCode = cliexit.Code
	posArgs  = cliargs.Args
)
