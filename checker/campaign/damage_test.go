package campaign

import (
	"strings"
	"testing"
)

// Damage names nodes by id: each script the reduction tries gets the
// node's own file rewritten (its seq moves with the ops before it), and an
// edit of a node the script no longer writes is left out.
func TestDamageFollowsTheNode(t *testing.T) {
	damage := []PointerEdit{{ID: "u2", Pointer: "parent_id", Target: "gone"}, {ID: "zz", Pointer: "called_by", Target: "u1"}}
	for _, tc := range []struct{ script, path string }{
		{"user id=u1 text=a\nreply\ndone\nuser id=u2 text=b", "history/9993-u-u2.json"},
		{"user id=u2 text=b", "history/9991-u-u2.json"},
	} {
		edits, err := FileEdits(script(t, tc.script), 9990, damage)
		if err != nil {
			t.Fatal(err)
		}
		if len(edits) != 1 || edits[0].Path != tc.path || !strings.Contains(string(edits[0].Content), `"parent_id": "gone"`) ||
			!strings.Contains(string(edits[0].Content), `"id": "u2"`) {
			t.Errorf("%q: edits %+v, want %s with parent_id gone", tc.script, edits, tc.path)
		}
	}
	edits, err := FileEdits(script(t, "user id=u1 text=a"), 0, []PointerEdit{{ID: "u1", Pointer: "called_by", Target: "u1"}})
	if err != nil || len(edits) != 1 || !strings.Contains(string(edits[0].Content), `"called_by": "u1"`) {
		t.Errorf("a called_by edit: %+v, %v", edits, err)
	}
}
