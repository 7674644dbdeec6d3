//go:build !linux

package exhaust

// threadCPUSeconds is not measured here.
func threadCPUSeconds() (float64, bool) { return 0, false }
