package audit

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

func written(t *testing.T, script string) *store.Store {
	t.Helper()
	parsed, err := ops.ParseString(script)
	require.NoError(t, err)
	dir := filepath.Join(t.TempDir(), "s")
	_, err = driver.BuildWith(parsed, dir, flags.Off, store.WriteOptions{NoSync: true})
	require.NoError(t, err)
	st, err := store.Open(dir)
	require.NoError(t, err)
	return st
}

// TestContinuesCause: the rows a derivation may take for where the head
// was although they did not keep it: a run that never ended, and the reply
// of a sub-agent the task tool started (the calling turn's end takes the
// head back); a finished run or a plain reply is no such row.
func TestContinuesCause(t *testing.T) {
	st := written(t, `session id=local_cause00001
user id=u1 text=hi
reply
task call=toolu_1 id=s1 attach=at1 text="look around" label=scout rooted
done
manual id=m0 name=word_count args="{\"text\": \"hi\"}"
end output=2
manual id=m1 name=word_count args="{\"text\": \"hi\"}"
crash
spawn mode=inherit cmd=c1 id=s2 attach=at2 text="sub task" label=helper rooted
`)
	for id, want := range map[string]string{
		"m1":       "after-crashed-run",
		"s1_reply": "after-task-sub-agent",
		"m0":       "continues-head",
		"u1_reply": "continues-head",
		"s2_reply": "continues-head", // a /spawn sub-agent: the head stays on its reply
		"missing":  "continues-head",
	} {
		require.Equal(t, want, continuesCause(st, id), id)
	}
}

// TestParentLaterCause: a row whose recorded parent was written after it
// starts a conversation of its own under flag A (a pointer only goes
// back), and the audit names that rule, not "unexplained"; a recorded
// parent written before it is an ordinary recorded pointer.
func TestParentLaterCause(t *testing.T) {
	st := written(t, `session id=local_cause00002
legacy-user id=u1 text=hi parent=null
legacy-reply id=a0 text=early parent=a1
legacy-reply id=a1 text=hello parent=u1
`)
	preds := lane.PredsOf(st)
	pred, ok := preds.Of("a0")
	require.True(t, ok)
	require.Equal(t, node.RootID, pred, "flag A takes no pointer forward")
	require.Equal(t, ruleRecorded, ruleOf(st, preds, "a0", pred))
	require.Equal(t, "parent-later", rootCause(st, preds, "a0", pred))
	pred, ok = preds.Of("a1")
	require.True(t, ok)
	require.Equal(t, "u1", pred)
	require.Equal(t, ruleRecorded, ruleOf(st, preds, "a1", pred))
}
