package ops_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/checker/ops"
)

// TestIntentRule: which legacy scripts keep their intent in the data. A row
// that records no parent (a manual run, a script row) after a checkout
// loses it, until a row records where the head stands: a web turn, a reply,
// an edit, a standalone error, a /spawn. A dispatcher turn does not record
// it (it never moves the head; its reply does), so a checkout, a dispatcher
// turn that never got an answer and then a manual run is the ambiguity too:
// the class of corpus/ops/regressions/checkout-then-unanswered-fork-then-manual.ops.
func TestIntentRule(t *testing.T) {
	const manual = `manual id=m2 name=word_count args="{}"` + "\nend\n"
	for script, want := range map[string]bool{
		"user id=u1 text=hi\nreply\ndone\n" + manual:                                                                  true,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\n" + manual:                                                  false,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\nuser id=u2 text=hi\nreply\ndone\n" + manual:                 true,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\ndispatch id=d1 text=hi parent=none\ncrash\n" + manual:       false,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\ndispatch id=d1 text=hi\ncrash\n" + manual:                   false,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\nfork-root id=d1 text=hi\ncrash\n" + manual:                  false,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\ndispatch id=d1 text=hi parent=none\nreply\ndone\n" + manual: true,
		"user id=u1 text=hi\nreply\ndone\ncheckout id=u1\nflag set=A\n" + manual:                                      true,
		// Writers taking turns at idle points keep it; a run resumed after
		// another writer's turn moves the head back where the data cannot
		// say (the same bytes as the run ending before that turn).
		"user id=u1 text=hi\nreply\ndone\nwriter name=w2 set=off\n" + manual: true,
		"manual id=m1 name=f args=\"{}\"\nwriter name=w2 set=off\ndispatch id=d1 text=hi\nreply\ndone\n" +
			"writer name=w1 set=off\nend\n" + manual: false,
		"manual id=m1 name=f args=\"{}\"\nwriter name=w2 set=off\ndispatch id=d1 text=hi\nreply\ndone\n" +
			"writer name=w1 set=off\nend\nflag set=A\n" + manual: true,
	} {
		parsed, err := ops.ParseString(script)
		require.NoError(t, err)
		require.Equal(t, want, harness.IntentInData(parsed), "intent in the data of\n%s", script)
	}
}
