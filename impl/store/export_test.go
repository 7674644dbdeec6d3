package store

// SetCrashPoint installs a crash hook for the external tests and returns a
// function that removes it.
func SetCrashPoint(f func(step string) error) (restore func()) {
	old := crashPoint
	crashPoint = f
	return func() { crashPoint = old }
}

// SetParallelRead sets the number of files per core below which Open reads
// on one goroutine, and returns a function that restores it.
func SetParallelRead(n int) (restore func()) {
	old := parallelRead
	parallelRead = n
	return func() { parallelRead = old }
}
