// Package runflags holds the flags of a run, shared by bench run and bench
// doctor, and reads them into a runner.Spec: the model server's flags, a
// flag for every setting of the settings table (record.Table), the plan's
// lists (tasks, tracks, seeds, hosts) and the flags that --resume and
// --replay refuse. Every mistake in them is a usage error (exit 2).
package runflags
