package audit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIntendedReadsWritersFlagsFromOps: a session's script says how its rows
// were written by its flag and writer ops, wherever they occur: every row
// written with the flags on (from the first op, or by a second writer on
// all that wrote every row) is held to the strict rule; a row written off,
// before a flag op or by a writer on an earlier step, to the no-lost-message
// rule.
func TestIntendedReadsWritersFlagsFromOps(t *testing.T) {
	for script, strict := range map[string]bool{
		"flag set=all\nuser id=u1 text=hi\nreply\ndone\n":                                                 true,
		"writer name=w2 set=all\nuser id=u1 text=hi\nreply\ndone\n":                                       true,
		"user id=u1 text=hi\nreply\ndone\nflag set=all\nuser id=u2 text=hi\nreply\ndone\n":                false,
		"flag set=all\nuser id=u1 text=hi\nreply\ndone\nwriter name=w2 set=A\nreload\n":                   true,
		"flag set=all\nuser id=u1 text=hi\nreply\ndone\nwriter name=w2 set=A\nuser id=u2 text=hi\n":       false,
		"flag set=all\nuser id=u1 text=hi\nwriter name=w2 set=off\nwriter name=w1 set=all\nreply\ndone\n": true,
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, ScriptName), []byte(script), 0o644))
		in := intended(dir, false)
		require.NoError(t, in.err)
		require.Equal(t, strict, in.script.Strict(), "strict of\n%s", script)
	}
}
