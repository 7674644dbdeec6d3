package bench

import (
	"os"
	"testing"
	"sessiondag/driver"
)

func TestProbe2(t *testing.T) {
	if os.Getenv("PROBE2") == "" { t.Skip() }
	s := Script(10000, Seed)
	if _, err := driver.Build(s, "", WriterFlags); err != nil { t.Fatal(err) }
}
