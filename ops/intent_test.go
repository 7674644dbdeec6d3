package ops_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// TestIntentRule: which legacy scripts keep their intent in the data. A row
// that records no parent (a manual run, a script row) after a checkout
// loses it, until a row records where the head stands: a web turn, a reply,
// an edit, a standalone error, a /spawn, and a dispatcher turn as R writes
// it (caller-less, its parent recorded, the head on it). One called by ROOT
// (rooted, older writers) does not record it (it never moves the head; its
// reply does), so a checkout, such a turn that never got an answer and then
// a manual run is the ambiguity too: the class of
// corpus/ops/regressions/checkout-then-unanswered-fork-then-manual.ops.
func TestIntentRule(t *testing.T) {
	const manual = `manual id=m2 name=word_count args="{}"` + "\nend\n"
	const spawn = "spawn mode=inherit cmd=c1 id=s1 attach=a1 text=hi label=helper\n"
	const checkout = "user id=u1 text=hi\nreply\ndone\ncheckout id=u1\n"
	const rewoundHead = "user id=u1 text=hi\nreply\ntool call=t1 args=\"{}\" legacy\ndone\n" +
		"user id=u2 text=hi\nreply\ntool call=t2 args=\"{}\" legacy\ncrash\nrewind id=u2_reply_t_t2\n"
	for script, want := range map[string]bool{
		"user id=u1 text=hi\nreply\ndone\n" + manual: true,
		checkout + manual: false,
		checkout + "user id=u2 text=hi\nreply\ndone\n" + manual:                        true,
		checkout + "dispatch id=d1 text=hi parent=none rooted\ncrash\n" + manual:       false,
		checkout + "dispatch id=d1 text=hi rooted\ncrash\n" + manual:                   false,
		checkout + "fork-root id=d1 text=hi rooted\ncrash\n" + manual:                  false,
		checkout + "dispatch id=d1 text=hi parent=none rooted\nreply\ndone\n" + manual: true,
		checkout + "dispatch id=d1 text=hi parent=none\ncrash\n" + manual:              true,
		checkout + "dispatch id=d1 text=hi\ncrash\n" + manual:                          true,
		checkout + "fork-root id=d1 text=hi\ncrash\n" + manual:                         true,
		checkout + "merge cmd=c1 id=d1 text=hi\ncrash\n" + manual:                      true,
		checkout + `run id=r1 name=word_count args="{}"` + "\nend\n":                   false,
		checkout + "flag set=A\n" + manual:                                             true,
		// A writer without A compacting rows a writer with A wrote copies
		// their predecessors; with A, or on rows written off, it does not.
		"writer name=w2 set=A\nuser id=u1 text=hi\nreply\ndone\nuser id=u2 text=hi\nreply\ndone\n" +
			"writer name=w1 set=off\ncompact id=c keep=1\n": false,
		"writer name=w2 set=A\nuser id=u1 text=hi\nreply\ndone\nuser id=u2 text=hi\nreply\ndone\n" +
			"compact id=c keep=1\n": true,
		"user id=u1 text=hi\nreply\ndone\nuser id=u2 text=hi\nreply\ndone\ncompact id=c keep=1\n": true,
		// A /spawn from a head on an orphan whose caller is not written yet
		// (TestP3, migration data; a caller no op writes is not written yet
		// either, as far as the writer can tell); once the caller is
		// written, it may.
		"user id=u0 text=hi\nreply\ndone\norphan id=o1 name=bash caller=u5_reply\ncheckout id=o1\n" + spawn:                                  false,
		"user id=u0 text=hi\nreply\ndone\norphan id=o1 name=bash caller=gone\ncheckout id=o1\n" + spawn:                                      false,
		"user id=u0 text=hi\nreply\ndone\nuser id=u5 text=hi\nreply\ndone\norphan id=o1 name=bash caller=u5_reply\ncheckout id=o1\n" + spawn: true,
		"user id=u0 text=hi\nreply\ndone\norphan id=o1 name=bash\ncheckout id=o1\n" + spawn:                                                  true,
		// A dispatcher turn inheriting its parent from a rewound head: R's
		// get_branch leaves the head out and reaches an earlier legacy
		// tool row (corpus/ops/regressions/rollout-mixed-dispatch-rewound-head.ops);
		// given a parent, or from a head not rewound, it records the intent.
		rewoundHead + "dispatch id=d1 text=hi\n":                    false,
		rewoundHead + "dispatch id=d1 text=hi rooted\n":             false,
		rewoundHead + "dispatch id=d1 text=hi parent=none\n":        true,
		rewoundHead + "dispatch id=d1 text=hi parent=u1\n":          true,
		"user id=u1 text=hi\nreply\ndone\ndispatch id=d1 text=hi\n": true,
		// Writers taking turns at idle points keep it; a run resumed after
		// another writer's turn moves the head back where the data cannot
		// say (the same bytes as the run ending before that turn).
		"user id=u1 text=hi\nreply\ndone\nwriter name=w2 set=off\n" + manual: true,
		"manual id=m1 name=f args=\"{}\"\nwriter name=w2 set=off\ndispatch id=d1 text=hi\nreply\ndone\n" +
			"writer name=w1 set=off\nend\n" + manual: false,
		"manual id=m1 name=f args=\"{}\"\nwriter name=w2 set=off\ndispatch id=d1 text=hi\nreply\ndone\n" +
			"writer name=w1 set=off\nend\nflag set=A\n" + manual: true,
		// A reload onto a call of a reply puts the browser on the reply the
		// load shows, which a web turn then records: the reply the call
		// stands for, where the intent places the turn; without the reload
		// the browser stands on the call itself, as the store's head.
		"user id=u1 text=hi\nreply\ntool call=t1 name=grep args=\"{}\"\ncrash\ncheckout id=u1_reply_t_t1\nreload\n" +
			"user id=u2 text=hi\n": true,
	} {
		parsed, err := ops.ParseString(script)
		require.NoError(t, err)
		require.Equal(t, want, harness.IntentInData(parsed), "intent in the data of\n%s", script)
	}
}
