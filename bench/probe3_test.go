package bench

import (
	"fmt"
	"os"
	"testing"
	"time"
	"sessiondag/driver"
)

func TestProbe3(t *testing.T) {
	if os.Getenv("PROBE3") == "" { t.Skip() }
	t0 := time.Now()
	s := Script(100000, Seed)
	fmt.Println("gen", time.Since(t0), len(s))
	t0 = time.Now()
	r, err := driver.Build(s, "", WriterFlags)
	if err != nil { t.Fatal(err) }
	fmt.Println("build", time.Since(t0), r.W.S.Len())
}
