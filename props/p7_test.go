package props

import (
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/checker/harness"
)

// TestP7PersistenceRoundTrip: whatever the writers wrote, a cold load of the
// directory gives the same nodes (byte for byte, same order), the same head
// and the same views as the live session, after every op.
func TestP7PersistenceRoundTrip(t *testing.T) {
	t.Parallel()
	data := writtenBy(legacyData)
	judges(t, []harness.Check{check("persistence")}, data)
	if underTest != nil {
		// Another process: the harness makes each session's directory,
		// and a restart is the cold load.
		rapid.Check(t, func(t *rapid.T) {
			machine(t, "TestP7PersistenceRoundTrip", data, harness.Options{NoSync: true}, check("persistence"))
		})
		return
	}
	rapid.Check(t, func(t *rapid.T) {
		parent, err := os.MkdirTemp(scratch(), "sessiondag-p7-")
		if err != nil {
			t.Fatalf("temp dir: %v", err)
		}
		defer os.RemoveAll(parent)
		// Durability is the crash tests' subject; here fsync only costs time.
		o := harness.Options{Dir: filepath.Join(parent, "session"), NoSync: true}
		machine(t, "TestP7PersistenceRoundTrip", legacyData, o, check("persistence"))
	})
}

// scratch is where throwaway session directories go: a RAM disk when the
// machine has one (the properties write and re-read thousands of them).
func scratch() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return ""
}
