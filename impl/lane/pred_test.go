package lane_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
)

func add(t *testing.T, s *store.Store, id, role, calledBy string, meta ...node.Member) {
	t.Helper()
	n := &node.Node{ID: id, Seq: -1, Role: role, CalledBy: calledBy, CreatedAt: node.Num("1.0"),
		Input: node.NullV(), Output: node.Str(id), Reads: node.Arr([]node.Value{}), Metadata: &node.Obj{M: meta}}
	_, err := s.Append(n)
	require.NoError(t, err)
}

// TestPredsOfFollowsUpdates: the cached predecessors are extended on
// append, kept when an update leaves what the derivation reads alone, and
// derived afresh when it does not; each time they equal a fresh NewPreds.
func TestPredsOfFollowsUpdates(t *testing.T) {
	s := store.New("s")
	add(t, s, node.RootID, node.RoleUser, "", node.Member{Key: "display", Val: node.Str("root")})
	add(t, s, "u1", node.RoleUser, node.RootID, node.Member{Key: "source", Val: node.Str("web")})
	add(t, s, "a1", node.RoleLLM, "u1")
	agree := func(want map[string]string) {
		t.Helper()
		agreeWithFresh(t, s, want)
	}
	agree(map[string]string{"u1": node.RootID, "a1": "u1"})
	first := lane.PredsOf(s)

	// A second user typed from the command line, answered: a deliberate root.
	add(t, s, "u2", node.RoleUser, node.RootID, node.Member{Key: "source", Val: node.Str("cli")})
	add(t, s, "a2", node.RoleLLM, "u2")
	agree(map[string]string{"u2": node.RootID})
	require.Equal(t, first.Epoch(), lane.PredsOf(s).Epoch(), "an append extends the derivation")

	// A status update is not read by the derivation: kept.
	require.NoError(t, s.Update("a1", func(n *node.Node) { n.Metadata.Set("status", node.Str("completed")) }))
	agree(nil)
	require.Equal(t, first.Epoch(), lane.PredsOf(s).Epoch(), "an update the derivation does not read keeps it")

	// The source is: u2 now continues the conversation after a1.
	require.NoError(t, s.Update("u2", func(n *node.Node) { n.Metadata.Set("source", node.Str("web")) }))
	agree(map[string]string{"u2": "a1"})
	require.NotEqual(t, first.Epoch(), lane.PredsOf(s).Epoch(), "an update the derivation reads starts it over")
}

// agreeWithFresh checks the cached predecessors of every node against a
// fresh derivation, then the given ones.
func agreeWithFresh(t *testing.T, s *store.Store, want map[string]string) {
	t.Helper()
	cached, fresh := lane.PredsOf(s), lane.NewPreds(s)
	for _, n := range s.Nodes() {
		gp, gok := cached.Of(n.ID)
		fp, fok := fresh.Of(n.ID)
		require.Equal(t, fp, gp, "predecessor of %s", n.ID)
		require.Equal(t, fok, gok, "lane of %s", n.ID)
	}
	for id, p := range want {
		got, _ := cached.Of(id)
		require.Equal(t, p, got, "predecessor of %s", id)
	}
}

// TestPredsOfFollowsAnswers: a dispatcher root fork without an answer
// continues where the head was, and rows after it continue it (a retry may
// have made it the head without a trace); once its reply is appended it is a
// root again and the rows after it continue the earlier head. The cache
// derives again from the turn, each time equal to a fresh derivation.
func TestPredsOfFollowsAnswers(t *testing.T) {
	s := store.New("s")
	cli := node.Member{Key: "source", Val: node.Str("cli")}
	add(t, s, node.RootID, node.RoleUser, "", node.Member{Key: "display", Val: node.Str("root")})
	add(t, s, "F1", node.RoleCode, node.RootID)
	add(t, s, "u1", node.RoleUser, node.RootID, cli)
	add(t, s, "F2", node.RoleCode, node.RootID)
	agreeWithFresh(t, s, map[string]string{"F1": node.RootID, "u1": "F1", "F2": "u1"})
	before := lane.PredsOf(s).Epoch()

	add(t, s, "a1", node.RoleLLM, "u1", node.Member{Key: "parent_id", Val: node.Str("u1")})
	agreeWithFresh(t, s, map[string]string{"u1": node.RootID, "F2": "F1", "a1": "u1"})
	require.NotEqual(t, before, lane.PredsOf(s).Epoch(), "the answer changed derived predecessors")

	// A dispatcher turn with a recorded parent never moves the head, answered
	// or not.
	add(t, s, "u2", node.RoleUser, node.RootID, cli, node.Member{Key: "parent_id", Val: node.Str("F1")})
	add(t, s, "F3", node.RoleCode, node.RootID)
	agreeWithFresh(t, s, map[string]string{"u2": "F1", "F3": "a1"})

	// An edit of an unanswered root fork answers it: both stay roots.
	add(t, s, "u3", node.RoleUser, node.RootID, cli)
	agreeWithFresh(t, s, map[string]string{"u3": "F3"})
	add(t, s, "e3", node.RoleUser, "", node.Member{Key: "source", Val: node.Str("web")},
		node.Member{Key: "parent_id", Val: node.Str(node.RootID)}, node.Member{Key: "forked_from", Val: node.Str("u3")})
	agreeWithFresh(t, s, map[string]string{"u3": node.RootID, "e3": node.RootID})

	// An answer appended with the turn, before any load, derives nothing twice.
	before = lane.PredsOf(s).Epoch()
	add(t, s, "u4", node.RoleUser, node.RootID, cli)
	add(t, s, "a4", node.RoleLLM, "u4", node.Member{Key: "parent_id", Val: node.Str("u4")})
	agreeWithFresh(t, s, map[string]string{"u4": node.RootID})
	require.Equal(t, before, lane.PredsOf(s).Epoch())
}

// TestParentStoredLaterDangles: a recorded parent_id naming a node stored
// only after the row resolves as it did when the row was written (it
// dangled: the row is a root), so the derivation never closes a cycle:
// here a1 names u2's reply, and u2 was typed on a1.
func TestParentStoredLaterDangles(t *testing.T) {
	s := store.New("s")
	add(t, s, node.RootID, node.RoleUser, "", node.Member{Key: "display", Val: node.Str("root")})
	add(t, s, "a1", node.RoleLLM, "", node.Member{Key: "parent_id", Val: node.Str("u2_reply")})
	add(t, s, "u2", node.RoleUser, node.RootID, node.Member{Key: "source", Val: node.Str("web")},
		node.Member{Key: "parent_id", Val: node.Str("a1")})
	add(t, s, "u2_reply", node.RoleLLM, "u2", node.Member{Key: "parent_id", Val: node.Str("u2")})
	p := lane.NewPreds(s)
	for id, want := range map[string]string{"a1": node.RootID, "u2": "a1", "u2_reply": "u2"} {
		got, ok := p.Of(id)
		require.True(t, ok, "%s is a conversation row", id)
		require.Equal(t, want, got, "predecessor of %s", id)
	}
	require.Equal(t, []string{"a1", "u2", "u2_reply"}, p.Walk("u2_reply"))
}

// TestPredsOfFollowsALaterCaller: a reply whose caller is not in the
// session (damaged data: the original's writers always write a caller
// first) is off the conversation lane; when a user with that id is
// appended it is on it, so the cache, which looked the caller up in vain,
// derives afresh rather than extend.
func TestPredsOfFollowsALaterCaller(t *testing.T) {
	s := store.New("s")
	add(t, s, node.RootID, node.RoleUser, "", node.Member{Key: "display", Val: node.Str("root")})
	add(t, s, "u1", node.RoleUser, node.RootID, node.Member{Key: "source", Val: node.Str("web")})
	add(t, s, "a1", node.RoleLLM, "u1")
	add(t, s, "a2", node.RoleLLM, "u2") // names a caller not written
	agreeWithFresh(t, s, map[string]string{"a1": "u1"})
	_, conv := lane.PredsOf(s).Of("a2")
	require.False(t, conv, "a reply whose caller is missing is off the conversation lane")

	add(t, s, "u2", node.RoleUser, node.RootID, node.Member{Key: "source", Val: node.Str("web")})
	agreeWithFresh(t, s, nil)
	_, conv = lane.PredsOf(s).Of("a2")
	require.True(t, conv, "once its caller is appended the reply is on the conversation lane")
}
