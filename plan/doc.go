// Package plan says what a run will cost before it is spent: its plan as a
// table (tasks × tracks × models × seeds, the shard, the hosts), the number
// of episodes, the most model calls and reply tokens its budgets allow, and
// an estimate of its wall time, from a previous run of the same model
// (Calibration) or from the episodes finished so far (Estimator), smoothed
// so that the shown time left never leaves the range shown before it.
// cmd/bench prints it; nothing here contacts a server or writes a file.
package plan
