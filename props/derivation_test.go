package props

import (
	"slices"
	"testing"

	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/webui"
	"sessiondag/ops"
)

// TestDerivationRules: flag A's derivation of a conversation predecessor
// for rows written before the rollout, rule by rule as model/README.md
// ("Legacy derivation") states them, on small sessions written with the
// flags off. Each expected chain is the one under A,B at the stored head
// that the rule's statement gives, written by hand from the rule; the
// property suite checks the derivation only against the intent, which
// judges legacy data leniently, so each rule is also pinned here.
func TestDerivationRules(t *testing.T) {
	inProcessOnly(t, "flag A's derivation, read from the load's predecessors")
	const turn = "user id=u1 text=hi\nreply\ndone\n"
	for _, tc := range []struct {
		rule, script string
		chain        []string
	}{
		{"1: a recorded parent_id is trusted", turn + "legacy-user id=x1 text=a parent=u1_reply\n",
			[]string{"u1", "u1_reply", "x1"}},
		{"1: a parent written later dangled when the row was written: a root", turn + "legacy-user id=x1 text=a parent=l1\nlegacy-user id=l1 text=b parent=null\ncheckout id=x1\n",
			[]string{"x1"}},
		{"2: a retry takes the predecessor of the turn it reruns", turn + "user id=u2 text=b\nreply\ndone\nretry of=u2 id=r1\nreply\ndone\n",
			[]string{"u1", "u1_reply", "r1", "r1_reply"}},
		{"2: a compaction's copy of a rerun records its own parent", turn + "user id=u2 text=b\nreply\ndone\nedit of=u2 id=e1 text=c\nreply\ndone\ncompact id=s1 keep=2\n",
			[]string{"s1", "s1_k1", "s1_k2"}},
		{"3: a manual run continues where the head was", turn + "manual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"u1", "u1_reply", "m1"}},
		{"3: a failed web reply leaves the head on its user's message", turn + "user id=u2 text=b\nreply\nerror-folded type=RuntimeError msg=boom\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"u1", "u1_reply", "u2", "m1"}},
		{"5: a /spawn's pointer whose caller is ROOT follows the command row", "manual id=m0 name=word_count args=\"{}\"\nend error=boom\nreload\nspawn mode=inherit cmd=c1 id=s1 attach=a1 text=go\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"c1", "a1", "m1"}}, // R's /spawn leaves the head on c1: the run continues it (rule 5)
		{"5: a spawn turn's pointer follows its command row past the sub-agent's rows", "manual id=m0 name=word_count args=\"{}\"\ncrash\nspawn mode=inherit cmd=c1 id=s1 attach=a1 text=go turn\nreply\ntool call=t1 name=bash args=\"{}\" result=ok\ndone\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"c1", "a1", "m1"}},
		{"5: a spawn turn cut off leaves the head in the sub-agent's turn", "spawn mode=clean cmd=c1 id=s1 attach=a1 text=go turn\ncrash\nlegacy-user id=x1 text=b\n",
			[]string{"s1", "x1"}},
		{"5: a task's pointer gives the head back to its reply once the reply ends", turn + "user id=u2 text=b\nreply\ntask call=t1 id=s1 attach=a1 text=x label=l turn clean\nreply\ndone\ndone\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"u1", "u1_reply", "u2", "u2_reply", "a1", "m1"}}, // a1 spliced after its parent u2_reply
		{"5: a task's pointer under a reply cut off leaves the head in the sub-agent's turn", turn + "user id=u2 text=b\nreply\ntask call=t1 id=s1 attach=a1 text=x label=l turn clean\nreply\ndone\ncrash\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"s1", "s1_reply", "m1"}},
		// A role-less dict handed to the message adapter has no call edge
		// (a user's row: a called_by key stays in its metadata), and no
		// parent: where the head was. R's caller-less append moves the head
		// to it, so the run follows it.
		{"5: a dict the message adapter appended with no edge continues where the head was", turn + "user id=u2 text=b\nreply\ndone\n" +
			`message id=a1 caller=u1 keys="{\"display\": \"runtime\", \"function\": \"attach\", \"attach\": {\"session_id\": \"peer\", \"head_id\": \"peer_reply\", \"label\": \"peer\"}}"` +
			"\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"u1", "u1_reply", "u2", "u2_reply", "a1", "m1"}},
		{"4: an adapter user with an explicit null parent is a fork", turn + "legacy-user id=x1 text=a parent=null\n",
			[]string{"x1"}},
		{"4: an answered dispatcher user without a parent is a fork", turn + "dispatch id=d1 text=a parent=none rooted\nreply\ndone\n",
			[]string{"d1", "d1_reply"}},
		// R's dispatcher records the fork's null parent and moves the head
		// to it: a fork whether answered or not, which a run after it
		// continues (rule 3). Rule 6 is about the older ROOT-called form.
		{"4: R's dispatcher user with its explicit null parent is a fork the head moved to", turn + "dispatch id=f1 text=a parent=none\ncrash\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"f1", "m1"}},
		{"6: an unanswered root fork continues where the head was and moves it", turn + "dispatch id=f1 text=a parent=none rooted\ncrash\nmanual id=m1 name=word_count args=\"{}\"\nend\n",
			[]string{"u1", "u1_reply", "f1", "m1"}},
		{"6: a row recording the fork as its parent answers it", turn + "dispatch id=f1 text=a parent=none rooted\ncrash\nlegacy-user id=x1 text=b parent=f1\n",
			[]string{"f1", "x1"}},
		{"6: a standalone error answers it", turn + "dispatch id=f1 text=a parent=none rooted\nerror-standalone id=e1 type=ProviderError msg=down\n",
			[]string{"f1", "e1"}},
		// The answer comes after the run: the run still continues the turn
		// the head was on, not the fork (the checkout only picks the row to
		// load at, after every row was written).
		{"6: an answered fork does not move the head", turn + "dispatch id=f1 text=a parent=none rooted\ncrash\nmanual id=m1 name=word_count args=\"{}\"\nend\nlegacy-user id=x1 text=b parent=f1\ncheckout id=m1\n",
			[]string{"u1", "u1_reply", "m1"}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			script, err := ops.ParseString(tc.script)
			if err != nil {
				t.Fatal(err)
			}
			run, err := driver.Build(script, "", flags.Off)
			if err != nil {
				t.Fatal(err)
			}
			l := webui.Load(run.W.S.AtPersistedHead(), flags.A|flags.B)
			var got []string
			for _, m := range l.Chain {
				got = append(got, m.ID)
			}
			if !slices.Equal(got, tc.chain) {
				t.Errorf("chain under A,B %v, want %v\n%s", got, tc.chain, tc.script)
			}
		})
	}
}
