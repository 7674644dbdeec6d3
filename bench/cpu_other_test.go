//go:build !unix

package bench

import "testing"

// cpuPerOp reports nothing where getrusage is missing.
func cpuPerOp(*testing.B) func() { return func() {} }
