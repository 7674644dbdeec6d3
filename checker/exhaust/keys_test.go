package exhaust

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/store"
	"sessiondag/internal/shard"
	"sessiondag/model"
	"sessiondag/ops"
)

// derived are the fields of the interpreters' state that the AppendState
// methods leave out, each derived from the fields they encode, or a memo
// of what readers derived (the store's memo table is named by the
// store's encoding apart: its update log is encoded, its memos are what
// loads fill, which the scout never does).
var derived = cmp.Options{
	cmpopts.IgnoreFields(store.Store{}, "ParentReads", "Writes", "memo", "hidden", "byID", "dupIDs", "rootMax"),
	cmpopts.IgnoreFields(model.LegacyRun{}, "byID", "idx", "indexed", "memo", "replies"),
	cmpopts.IgnoreFields(model.TargetRun{}, "byID", "attachAt"),
	// Of the ops applied only whether there were any counts (session must
	// be the first).
	cmp.FilterPath(func(p cmp.Path) bool { return strings.HasSuffix(p.String(), "applied") },
		cmp.Comparer(func(a, b int) bool { return (a > 0) == (b > 0) })),
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmpopts.EquateEmpty(),
}

// snapshot is what stateKey reads of a lane after a script, held to
// compare field by field.
type snapshot struct {
	Script               string
	Front                frontier
	Impl                 *driver.Run
	Legacy               *model.LegacyRun
	Target               *model.TargetRun
	Strict, LegacyWrites bool
	InForce              int
}

// TestFingerprintsAreTheState: after every script of up to 2 ops
// (SESSIONDAG_FINGERPRINT_OPS=3 for 3: a minute of processor time), on each
// lane, two scripts with one state fingerprint have one state, field by
// field (go-cmp over every field but those named in derived): a field that
// decides what comes next and that no AppendState encodes shows up here as
// two states with one fingerprint. Shown failing by TestFingerprintLeavingOutCaught.
func TestFingerprintsAreTheState(t *testing.T) {
	max := 2
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_FINGERPRINT_OPS")); err == nil {
		max = n
	}
	for _, l := range newLanes(DefaultChecks(), nil, max, true, 1<<20, true, nil) {
		states, pairs, diff := mergedStates(t, l, max, (*lane).stateKey)
		if diff != "" {
			t.Fatalf("lane %s: %s", l.writer, diff)
		}
		if pairs == 0 {
			t.Fatalf("lane %s: no two scripts of %d ops share a state: the test compares nothing", l.writer, max)
		}
		t.Logf("lane %s: %d states, %d scripts sharing one", l.writer, states, pairs)
	}
}

// TestFingerprintLeavingOutCaught: fingerprints that leave out one piece of
// the state are caught by the comparison of TestFingerprintsAreTheState,
// each at 2 ops: the writers not performing the ops (what a writer op
// parks: their flags, browsers and turns), and how the flags changed from
// all of them on (what decides the flag ops and the kinds of data on the
// lane starting there).
func TestFingerprintLeavingOutCaught(t *testing.T) {
	for _, c := range []struct {
		name string
		key  func(*lane, Node, bool) Fingerprint
	}{
		{"the parked writers", func(l *lane, n Node, failed bool) Fingerprint {
			return l.stateKeyOf(n.front, failed, func(b []byte) []byte {
				return l.scout.Run().W.S.AppendState(l.scout.Run().W.AppendState(b))
			})
		}},
		{"the flips from all on", func(l *lane, n Node, failed bool) Fingerprint {
			f := *n.front
			f.flipsOn = harness.Steady
			return l.stateKeyOf(&f, failed, l.scout.Run().AppendState)
		}},
	} {
		found := false
		for _, l := range newLanes(DefaultChecks(), nil, 2, true, 1<<20, true, nil) {
			if _, _, diff := mergedStates(t, l, 2, c.key); diff != "" {
				found = true
				t.Logf("without %s, lane %s: %.400s", c.name, l.writer, diff)
				break
			}
		}
		if !found {
			t.Errorf("a fingerprint without %s took no two states as one", c.name)
		}
	}
}

// mergedStates walks every script of at most max ops on a lane and returns
// how many distinct keys it saw, how many scripts shared one, and the first
// two states of one key that differ, or "".
func mergedStates(t *testing.T, l *lane, max int, key func(*lane, Node, bool) Fingerprint) (states, pairs int, diff string) {
	t.Helper()
	require.NoError(t, l.start())
	byKey := map[Fingerprint]snapshot{}
	err := Walk(max, nil, shard.Whole, func(n Node) bool {
		if diff != "" {
			return false
		}
		pf, err := l.goTo(n.Script)
		require.NoError(t, err)
		require.Nil(t, pf)
		k := key(l, n, false)
		s := snapshot{Script: ops.String(n.Script), Front: *n.front, Impl: l.scout.Run(),
			Legacy: l.scout.Legacy, Target: l.scout.Target,
			Strict: l.scout.Strict(), LegacyWrites: l.scout.LegacyWrites(), InForce: l.scout.InForce()}
		first, seen := byKey[k]
		if !seen {
			byKey[k] = s
			l.scout = nil // the next script builds its own: the kept one must not move
			return true
		}
		pairs++
		if d := cmp.Diff(first, s, append(derived, cmpopts.IgnoreFields(snapshot{}, "Script"))...); d != "" {
			diff = fmt.Sprintf("one fingerprint, two states (-first +second):\n%s\nfirst:\n%s\nsecond:\n%s", d, first.Script, s.Script)
		}
		return true
	})
	require.NoError(t, err)
	return len(byKey), pairs, diff
}
