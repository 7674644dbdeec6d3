package audit

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
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
