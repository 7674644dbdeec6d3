package gen

import (
	"testing"

	"sessiondag/ops"
)

// TestNoCompactionOnACycle: a user naming a later id as parent, edited into
// a row of that id's user, then answered, closes a parent_id cycle of two
// rows; the shadow must not offer a compaction there (the writers refuse
// it: get_branch holds two rows). TestChecks/D-retire-d/migration drew one
// (seed 12312257968966915376).
func TestNoCompactionOnACycle(t *testing.T) {
	script, err := ops.ParseString("legacy-user id=u1 text=hello parent=u2_reply\n" +
		"edit of=u1 id=u2 text=hello\nreply\ndone\n")
	if err != nil {
		t.Fatal(err)
	}
	g := New(Options{Legacy: true})
	for _, op := range script {
		g.apply(op)
	}
	if g.st.compactable() {
		t.Fatalf("the shadow offers a compaction at %s, on a parent cycle of two rows", g.st.head)
	}
}
