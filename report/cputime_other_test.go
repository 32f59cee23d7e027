//go:build !unix

package report

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }

// maxRSS is not measured on this platform.
func maxRSS() int64 { return 0 }
