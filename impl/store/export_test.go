package store

// SetCrashPoint installs a crash hook for the external tests and returns a
// function that removes it.
func SetCrashPoint(f func(step string) error) (restore func()) {
	old := crashPoint
	crashPoint = f
	return func() { crashPoint = old }
}
