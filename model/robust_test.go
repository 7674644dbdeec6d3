package model

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every conformance session viewed at every possible stored head (and at
// "", an unknown id and ROOT) gives a view that marshals; the head fix-up
// lands on a row of `all` or keeps the stored head.
func TestEveryHeadNeverPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: every head of every session")
	}
	dirs, _ := filepath.Glob(filepath.Join(conformanceDir, "sessions", "*"))
	for _, dir := range dirs {
		s, err := ReadSessionDir(dir)
		require.NoError(t, err)
		heads := []string{"", "nope", "ROOT"}
		for _, n := range s.Nodes {
			heads = append(heads, n.ID)
		}
		for _, h := range heads {
			s.HeadID = h
			v := LegacyView(s)
			_, err := json.Marshal(v)
			require.NoError(t, err, "%s at %q", s.ID, h)
			if h != "" && *v.HeadID != h {
				assert.NotNil(t, rowByID(v.All, *v.HeadID), "%s at %q: fix-up target is in all", s.ID, h)
			}
		}
	}
}

// Corrupt pointers (§6 #25): walks stop at repeats, the execution tree of a
// called_by cycle leaves out the children on the cycle instead of recursing
// forever.
func TestCycles(t *testing.T) {
	s := session("b",
		mkNode(1, "a", "user", "", "ROOT", nil, "x", "parent_id", "b"),
		mkNode(2, "b", "llm", "", "a", nil, "y", "parent_id", "a"),
		mkNode(3, "F", "code", "f", "G", nil, nil, "status", "running"),
		mkNode(4, "G", "code", "g", "F", nil, nil, "status", "running"))
	v := LegacyView(s)
	assert.Equal(t, []string{"a", "b"}, ids(v.Chain))
	assert.Equal(t, []string{"a", "b"}, ids(v.Branch))
	tree := contextTree(s, "F").(*Object)
	assert.False(t, tree.Has("children"), "G calls F again: on the cycle, left out")
	assert.Equal(t, "null", tree.Val("output"), "running function: output None → \"null\"")
}
