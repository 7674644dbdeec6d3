package props

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"sessiondag/harness"
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
)

// TestDRetiresParentID: under flag D no reader reads parent_id (the counter
// of parent_id reads does not move during a load), and turning D on changes
// no view at all: it only moves the readers onto called_by and the stored
// predecessor. On all three kinds of data, after every op.
func TestDRetiresParentID(t *testing.T) {
	abc := flags.A | flags.B | flags.C
	for _, kind := range dataKinds {
		t.Run(kind.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				r := newRolloutRun(t, "TestDRetiresParentID", kind)
				t.Repeat(map[string]func(*rapid.T){"op": r.step, "": func(t *rapid.T) {
					st := r.impl.W.S.AtPersistedHead()
					before := adapter.ParentReads()
					d := webui.Views(st, flags.All)
					if n := adapter.ParentReads() - before; n != 0 {
						r.fail(t, fmt.Sprintf("flags all: %d reads of parent_id", n), "")
					}
					if s, diff := harness.ViewDiff(webui.Views(st, abc), d); s != "" {
						r.fail(t, "flag D changed view "+s, diff)
					}
				}})
			})
		})
	}
}
