package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func msg(id, parent string) *Object { return newObject("id", id, "parent_id", parent) }

// deepestLeaf walks msgs as a load's family does.
func deepestLeaf(msgs []*Object, id string) string {
	return newFamily(msgs, indexByID(msgs)).deepestLeaf(id)
}

// TestDeepestLeafOnACycle: deepest_leaf returns a leaf only when it reaches
// one; on a revisit it gives back the id it started from. Here a → b → c →
// b through the children relation (parent_id), so the walk from a meets b
// again.
func TestDeepestLeafOnACycle(t *testing.T) {
	msgs := []*Object{msg("a", "ROOT"), msg("b", "a"), msg("c", "b"), msg("b", "c")}
	assert.Equal(t, "a", deepestLeaf(msgs, "a"))
	assert.Equal(t, "c", deepestLeaf(msgs, "c"), "c → b → c: back to c")
	self := []*Object{msg("s", "s")}
	assert.Equal(t, "s", deepestLeaf(self, "s"))
}

// TestDeepestLeafReachesALeaf: the last child each time, down to a leaf; an
// id no message has is given back.
func TestDeepestLeafReachesALeaf(t *testing.T) {
	msgs := []*Object{msg("r", "ROOT"), msg("x", "r"), msg("y", "r"), msg("z", "y")}
	assert.Equal(t, "z", deepestLeaf(msgs, "r"))
	assert.Equal(t, "x", deepestLeaf(msgs, "x"))
	assert.Equal(t, "nope", deepestLeaf(msgs, "nope"))
}
