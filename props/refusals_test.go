package props

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// refusals are ops the original refuses where the models do, each after a
// valid prefix: a script that reaches one is not valid, so no generated
// script holds it and only an implementation that accepts it here shows
// that it writes what the original never does.
var refusals = []struct {
	name, prefix, op string
}{
	// R's task tool finds its parent turn through the web chat's session
	// ContextVar, which a dispatcher turn does not set: it answers with an
	// error text and runs no sub-agent (a tool op's row).
	{"task-in-a-dispatcher-turn", "dispatch id=u1 text=hi\nreply", "task call=c1 id=S attach=A text=go label=L"},
	{"async-task-in-a-dispatcher-turn", "dispatch id=u1 text=hi\nreply", "task call=c1 id=S attach=A text=go label=L async"},
	{"task-turn-in-a-dispatcher-turn", "dispatch id=u1 text=hi\nreply", "task call=c1 id=S attach=A text=go label=L turn"},
	// R's recursion guard: a function called while five runs of its name
	// are open raises in its caller's body before its own runs
	// (agentic_programming/function.py); what is written then is the
	// caller's code's.
	{"function-past-the-recursion-guard", "user id=u1 text=hi\nreply\n" + nested("f", "gui_step", 5),
		"fn id=f6 name=gui_step args=\"{}\""},
	// A question rejected has no answer.
	{"declined-ask-with-an-answer", "manual id=r1 name=word_count args=\"{}\"", "ask id=q1 answer=yes declined"},
	// drop removes what process_merge_turn retires: an attach pointer no
	// row names, no head rests on and no spawn turn still finishes,
	// before a row written after it.
	{"drop-of-no-attach-pointer", "user id=u1 text=hi\nreply\ndone", "drop id=u1"},
	{"drop-of-the-last-row", pointer, "drop id=at1"},
	{"drop-of-a-named-pointer", pointer + "\norphan id=o1 name=bash caller=at1", "drop id=at1"},
	{"drop-of-the-head", "legacy-user id=u1 text=a\nlegacy-reply id=a1 text=b parent=u1\n" +
		"message id=at1 role=assistant text=p parent=a1 keys=\"{\\\"function\\\": \\\"attach\\\"}\"\norphan id=o1 name=bash caller=gone", "drop id=at1"},
	{"drop-while-a-spawn-turn-finishes-it", "user id=u1 text=hi\nreply\ndone\n" +
		"spawn mode=async cmd=c1 id=s1 attach=a1 text=go label=L turn followup=f1\nwriter name=w2 set=off\nlegacy-user id=x1 text=hey parent=null", "drop id=a1"},
}

// pointer is a session whose last row is an attach pointer a merge wrote
// (called by the head).
const pointer = "legacy-user id=u1 text=a\nlegacy-reply id=a1 text=b parent=u1\n" +
	"message id=at1 role=assistant text=p caller=a1 keys=\"{\\\"function\\\": \\\"attach\\\"}\""

// nested is n function runs of name, each called by the one before.
func nested(id, name string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "fn id=%s%d name=%s args=\"{}\"\n", id, i, name)
	}
	return b.String()
}

// TestRefusedAsTheOriginal: the implementation refuses each op the original
// and the models refuse (every side refuses it: no validity finding).
func TestRefusedAsTheOriginal(t *testing.T) {
	t.Parallel()
	for _, r := range refusals {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel()
			track(t)
			prefix, err := ops.ParseString(r.prefix)
			require.NoError(t, err)
			op, err := ops.ParseLine(r.op)
			require.NoError(t, err)
			dir := filepath.Join(t.TempDir(), ops.DefaultSession)
			s, err := harness.NewSession(harness.Options{Data: harness.OffAny, Dir: dir, Impl: underTest})
			if errors.Is(err, harness.ErrNotApplicable) {
				notRun(t, "data written with the flags off", err) // the original's refusals are the legacy's
			}
			require.NoError(t, err)
			defer s.Close()
			script := append(prefix, op)
			for i, p := range script {
				f, err := s.Apply(p)
				if errors.Is(err, harness.ErrNotApplicable) {
					notRun(t, p.Kind(), err)
				}
				require.Nil(t, f, "%s: %v", ops.Format(p), f)
				if i == len(script)-1 {
					require.Error(t, err, "%s after %q: the original refuses it", r.op, r.prefix)
				} else {
					require.NoError(t, err, "the prefix %q", r.prefix)
				}
			}
		})
	}
}
