package exhaust

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/internal/shard"
	"sessiondag/ops"
)

// scripts walks max ops of the given kinds in shard and returns the texts
// of the scripts the shard owns, in walk order.
func scripts(t *testing.T, max int, kinds []string, sh shard.Shard) []string {
	t.Helper()
	var out []string
	err := Walk(max, kinds, sh, func(n Node) bool {
		if n.Owned {
			out = append(out, ops.String(n.Script))
		}
		return true
	})
	require.NoError(t, err)
	return out
}

// TestFirstOps: the one-op scripts are exactly what an empty session takes,
// with the representatives of each argument (worked out by hand from
// ops/README.md: no pending turn, no node to name, crash and reload valid
// anywhere; every flag set, since the step in force is off on one lane and
// all on the other; a second writer taking over on either end of the
// rollout).
func TestFirstOps(t *testing.T) {
	want := []string{
		"clock at=1782003600.25",
		"crash",
		"dispatch id=n1 text=hi",
		"dispatch id=n1 text=hi parent=gone",
		"dispatch id=n1 text=hi parent=none",
		"dispatch id=n1 text=hi rooted",
		`flag set="A,B"`,
		`flag set="A,B,C"`,
		"flag set=A",
		"flag set=all",
		"flag set=off",
		"fork-root id=n1 text=hi",
		"legacy-reply id=n1 text=hi parent=gone",
		"legacy-user id=n1 text=hi",
		"legacy-user id=n1 text=hi parent=null",
		`manual id=n1 name=word_count args="{\"text\": \"hi\"}"`,
		"merge cmd=n1 id=n2 text=hi",
		"orphan id=n1 name=bash",
		"orphan id=n1 name=bash caller=gone",
		"orphan id=n1 name=bash caller=n2_reply",
		"reload",
		`run id=n1 name=word_count args="{\"text\": \"hi\"}"`,
		"script what=ask id=n1 name=word_count",
		"script what=exec id=n1 name=word_count",
		"script what=fn id=n1 name=word_count",
		"spawn mode=async cmd=n1 id=n2 attach=n3 text=hi label=helper followup=n4 task=n5",
		"spawn mode=clean cmd=n1 id=n2 attach=n3 text=hi label=helper",
		"spawn mode=inherit cmd=n1 id=n2 attach=n3 text=hi label=helper",
		"user id=n1 text=hi",
		"writer name=w2 set=all",
		"writer name=w2 set=off",
	}
	got := scripts(t, 1, nil, shard.Whole)
	for i := range got {
		got[i] = strings.TrimSuffix(got[i], "\n")
	}
	require.Equal(t, want, got)
}

// TestWalkOrderAndCanonicalIDs: the walk is a depth-first walk in sorted
// order (each script after its prefix, siblings by text), the same every
// time; every script is already in canonical form (the k-th id it mints is
// n<k>), so no two scripts are renamings of one another; and every prefix
// of a script is a script of the walk.
func TestWalkOrderAndCanonicalIDs(t *testing.T) {
	var all [][]ops.Op
	require.NoError(t, Walk(3, nil, shard.Whole, func(n Node) bool {
		all = append(all, slices.Clone(n.Script))
		return true
	}))
	// 28457 of 3 ops: a /spawn records the store's head when the web server
	// makes its conversation then (ops/README.md, "conversation"), which
	// decides whether a compact right after it has the four rows it needs;
	// an ask is answered, answered with nothing or declined; a task (R's
	// tool) is called in a web turn only; an async /spawn ends with its
	// follow-up turn (R's task runner), whose rows a compact may keep.
	require.Equal(t, 29401, len(all), "scripts of 1…3 ops (31 + 913 + 28457)")
	seen := map[string]bool{}
	for i, s := range all {
		text := ops.String(s)
		require.Equal(t, text, ops.String(ops.Canonical(s)), "script %d is not in canonical form", i)
		require.False(t, seen[text], "script %d twice:\n%s", i, text)
		seen[text] = true
		if len(s) > 1 {
			require.True(t, seen[ops.String(s[:len(s)-1])], "the prefix of script %d was not walked before it", i)
		}
		if i > 0 {
			require.Negative(t, walkOrder(all[i-1], s), "scripts %d and %d out of walk order", i-1, i)
		}
	}
	require.Equal(t, scriptTexts(all), scripts(t, 3, nil, shard.Whole), "a second walk differs")
}

func scriptTexts(all [][]ops.Op) []string {
	out := make([]string, len(all))
	for i, s := range all {
		out[i] = ops.String(s)
	}
	return out
}

// TestWalkScriptsAreValid: the implementation's writers accept every script
// the walk builds from the model's validity.
func TestWalkScriptsAreValid(t *testing.T) {
	require.NoError(t, Walk(3, nil, shard.Whole, func(n Node) bool {
		_, err := driver.Build(n.Script, "", flags.Off)
		require.NoError(t, err, "the writers refuse:\n%s", ops.String(n.Script))
		return true
	}))
}

// TestShardsPartitionTheWalk: shards 0…n-1 own disjoint sets of scripts
// whose union, in walk order, is the unsharded walk.
func TestShardsPartitionTheWalk(t *testing.T) {
	whole := scripts(t, 3, nil, shard.Whole)
	for _, n := range []int{2, 3, 5} {
		owner := map[string]int{}
		for i := range n {
			for _, s := range scripts(t, 3, nil, shard.Shard{I: i, N: n}) {
				prev, dup := owner[s]
				require.False(t, dup, "%d shards: shards %d and %d both own\n%s", n, prev, i, s)
				owner[s] = i
			}
		}
		require.Len(t, owner, len(whole), "%d shards", n)
		for _, s := range whole {
			_, ok := owner[s]
			require.True(t, ok, "%d shards: no shard owns\n%s", n, s)
		}
	}
	require.Error(t, Walk(3, nil, shard.Shard{I: 3, N: 3}, func(Node) bool { return true }))
}

// TestKinds: a walk over some kinds uses only those; an unknown kind or
// session is refused.
func TestKinds(t *testing.T) {
	for _, s := range scripts(t, 3, []string{"user", "reply", "done"}, shard.Whole) {
		for line := range strings.Lines(s) {
			kind, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			require.Contains(t, []string{"user", "reply", "done"}, kind)
		}
	}
	require.Equal(t, []string{"user id=n1 text=hi\n", "user id=n1 text=hi\nreply\n", "user id=n1 text=hi\nreply\ndone\n"},
		scripts(t, 3, []string{"user", "reply", "done"}, shard.Whole))
	require.Error(t, Walk(2, []string{"session"}, shard.Whole, func(Node) bool { return true }))
	require.Error(t, Walk(2, []string{"jump"}, shard.Whole, func(Node) bool { return true }))
}

// TestSynced: legacy data outside the data kinds harness.WrittenOff and
// Flipped is told apart: a web turn or /spawn from a browser that does not
// show the store's head, or a row that records no parent after a head move
// no row records (a checkout, a retry that writes no row) before a turn
// that does; but nothing written once flag A is on.
func TestSynced(t *testing.T) {
	synced := map[string]bool{}
	kinds := []string{"user", "reply", "done", "dispatch", "reload", "crash", "checkout", "legacy-user", "script"}
	require.NoError(t, Walk(4, kinds, shard.Whole, func(n Node) bool {
		synced[ops.String(n.Script)] = n.Synced
		return true
	}))
	// A retry that writes no row moves the head back without a trace until
	// its turn's reply (or error) records it.
	retried := map[string]bool{}
	require.NoError(t, Walk(5, []string{"fork-root", "crash", "retry", "reply", "script"}, shard.Whole, func(n Node) bool {
		retried[ops.String(n.Script)] = n.Synced
		return true
	}))
	// Once flag A is on the writers record every row's predecessor: a web
	// turn from a stale browser is no longer ambiguous.
	flipped := map[string]bool{}
	require.NoError(t, Walk(4, []string{"user", "dispatch", "crash", "flag"}, shard.Whole, func(n Node) bool {
		flipped[ops.String(n.Script)] = n.Synced
		return true
	}))
	for script, want := range map[string]bool{
		// the web server makes its conversation at the web turn, from the
		// head the crash left (ops/README.md, "conversation")
		"dispatch id=n1 text=hi\ncrash\nuser id=n2 text=hi\n":             true,
		"dispatch id=n1 text=hi\ncrash\nflag set=A\nuser id=n2 text=hi\n": true,
		"dispatch id=n1 text=hi\ncrash\nuser id=n2 text=hi\nflag set=A\n": true,
	} {
		got, walked := flipped[script]
		require.True(t, walked, "not walked:\n%s", script)
		require.Equal(t, want, got, "synced:\n%s", script)
	}
	for script, want := range map[string]bool{
		"fork-root id=n1 text=hi\ncrash\nretry of=n1 id=n2\ncrash\nscript what=fn id=n3 name=word_count\n": false,
		"fork-root id=n1 text=hi\ncrash\nretry of=n1 id=n2\nreply\ncrash\n":                                true,
		"fork-root id=n1 text=hi\ncrash\nscript what=fn id=n2 name=word_count\n":                           true,
		"user id=n1 text=hi\nreply\ndone\nuser id=n2 text=hi\n":                                            true,
		"dispatch id=n1 text=hi\nreply\ndone\nuser id=n2 text=hi\n":                                        true, // the conversation is made at the web turn
		"dispatch id=n1 text=hi\nreply\ndone\nreload\n":                                                    true,
		"dispatch id=n1 text=hi parent=none\ncrash\ncheckout id=n1\nlegacy-user id=n2 text=hi\n":           false,
		"dispatch id=n1 text=hi parent=none\ncrash\ncheckout id=n1\nlegacy-user id=n2 text=hi parent=n1\n": true,
		"user id=n1 text=hi\ncrash\ncheckout id=n1\nscript what=fn id=n2 name=word_count\n":                false,
		"user id=n1 text=hi\nreply\ndone\ncheckout id=n1\n":                                                true,
		// No ROOT yet: the web turn's ensureRoot moves the store's head to
		// it, and the row records the browser's head (n1) instead.
		"legacy-user id=n1 text=hi\ncheckout id=n1\nuser id=n2 text=hi\n": false,
		"legacy-user id=n1 text=hi\nreload\nuser id=n2 text=hi\n":         false, // after a reload too
	} {
		got, walked := synced[script]
		if !walked {
			got, walked = retried[script]
		}
		require.True(t, walked, "not walked:\n%s", script)
		require.Equal(t, want, got, "synced:\n%s", script)
		parsed, err := ops.ParseString(script)
		require.NoError(t, err)
		require.Equal(t, want, harness.IntentInData(parsed), "Synced of\n%s", script)
	}
	// The same for a /spawn (exhaust found P3 failing there at 5 ops: the
	// attach row hangs off the browser's rewound head, the intent off the
	// command row).
	spawn, err := ops.ParseString("legacy-user id=n1 text=hi\ncheckout id=n1\nrewind id=n1\n" +
		"spawn mode=clean cmd=n2 id=n3 attach=n4 text=hi label=helper\ncheckout id=n4\n")
	require.NoError(t, err)
	require.False(t, harness.IntentInData(spawn), "a /spawn that creates ROOT records the browser's head")
	_, walked := synced["checkout id=n1\n"]
	require.False(t, walked, "a checkout of no node")
}
