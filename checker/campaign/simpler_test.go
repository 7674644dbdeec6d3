package campaign

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"

	"sessiondag/ops"
)

// TestSimplerKeepsCalledNames: a reduction simplifies what an op says,
// never which tool or function it calls (an original holds none without a
// name, and refuses the op that calls one); its other values it does.
func TestSimplerKeepsCalledNames(t *testing.T) {
	for _, op := range []ops.Op{
		ops.Tool{CallID: "c1", Name: "grep", Args: `{"a": 1}`, Result: "ok"},
		ops.Fn{ID: "f1", Name: "analyze", Args: `{"a": 1}`},
		ops.Manual{ID: "f2", Name: "summarize", Args: `{"a": 1}`},
	} {
		simplified := 0
		for _, alt := range simpler(op) {
			simplified++
			name := reflect.ValueOf(alt).FieldByName("Name").String()
			assert.NotEqual(t, "", name, "%s simplified to %s", ops.Format(op), ops.Format(alt))
			assert.NotEqual(t, "{}", name, "%s simplified to %s", ops.Format(op), ops.Format(alt))
		}
		assert.Positive(t, simplified, "%s: its arguments are simplified", ops.Format(op))
	}
}
