package store

// SetParallelRead sets the number of files per core below which Open reads
// on one goroutine, and returns a function that restores it.
func SetParallelRead(n int) (restore func()) {
	old := parallelRead
	parallelRead = n
	return func() { parallelRead = old }
}
