package store

// SetParallelRead sets the number of files per core below which Open reads
// on one goroutine, and returns a function that restores it.
func SetParallelRead(n int) (restore func()) {
	old := parallelRead
	parallelRead = n
	return func() { parallelRead = old }
}

// SetAfterListing makes Open call f between reading history/ and reading
// meta.json, and returns a function that removes it.
func SetAfterListing(f func()) (restore func()) {
	afterListing = f
	return func() { afterListing = nil }
}
