package exhaust

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/checker/ops"
	"sessiondag/impl/store"
	"sessiondag/internal/shard"
	"sessiondag/model"
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
// two states with one fingerprint. Shown failing with the browser's head
// left out of both writers' encodings.
func TestFingerprintsAreTheState(t *testing.T) {
	max := 2
	if n, err := strconv.Atoi(os.Getenv("SESSIONDAG_FINGERPRINT_OPS")); err == nil {
		max = n
	}
	for _, l := range newLanes(DefaultChecks(), max, true, 1<<20, true) {
		require.NoError(t, l.start())
		byKey := map[Fingerprint]snapshot{}
		pairs := 0
		err := Walk(max, nil, shard.Whole, func(n Node) bool {
			require.NoError(t, l.goTo(n.Script))
			key := l.stateKey(n, false)
			s := snapshot{Script: ops.String(n.Script), Front: *n.front, Impl: l.scout.Impl,
				Legacy: l.scout.Legacy, Target: l.scout.Target,
				Strict: l.scout.Strict(), LegacyWrites: l.scout.LegacyWrites(), InForce: l.scout.InForce()}
			first, seen := byKey[key]
			if !seen {
				byKey[key] = s
				l.scout = nil // the next script builds its own: the kept one must not move
				return true
			}
			pairs++
			if d := cmp.Diff(first, s, append(derived, cmpopts.IgnoreFields(snapshot{}, "Script"))...); d != "" {
				t.Fatalf("lane %s: one fingerprint, two states (-first +second):\n%s\nfirst:\n%s\nsecond:\n%s",
					l.writer, d, first.Script, s.Script)
			}
			return true
		})
		require.NoError(t, err)
		if pairs == 0 {
			t.Fatalf("lane %s: no two scripts of %d ops share a state: the test compares nothing", l.writer, max)
		}
		t.Logf("lane %s: %d states, %d scripts sharing one", l.writer, len(byKey), pairs)
	}
}
