package campaign

import (
	"testing"

	"sessiondag/checker/harness"
	"sessiondag/ops"
)

// The reductions of one bug meet, whatever script found it: a say after a
// reload found after a retry turn, after a merge turn, or with the reload
// at each place in a four-op session, or with an image, reduces to one
// script. Deletion
// alone keeps the first at seven ops and leaves four different scripts.
func TestReductionsMeet(t *testing.T) {
	sayAfterReload := scriptCheck("say-after-reload", func(s []ops.Op) bool {
		reloaded := false
		for _, op := range s {
			switch op.(type) {
			case ops.Reload:
				reloaded = true
			case ops.Say:
				if reloaded {
					return true
				}
			}
		}
		return false
	})
	// A web message is never empty (R's handle_chat): the simplest text is "{}".
	const want = "user id=n1 text=\"{}\"\nreply\nreload\nsay\n"
	for _, found := range []string{
		"user id=n1 text=hi\nreply\ndone\nreload\nretry of=n1 id=n2\nreply\nsay",
		"reload\nmerge cmd=n1 id=n2\nreply\nsay",
		"reload\nspawn mode=inherit cmd=n1 id=n2 attach=n3 text=\"{}\" turn\nreply\nsay", // TestDriversSaveOneScript's suite drew it
		"reload\nuser id=n1 text=hi\nreply\nsay",
		"user id=n1 text=hi\nreload\nreply\nsay",
		"user id=n1 text=hi\nreply\nthink\nreload\nsay\ndone\nuser id=n2\nreply\nsay",
		// An image message may be empty: emptied one field at a time, these
		// stopped at `user id=n1 form=image` (TestDriversSaveOneScript's
		// suite drew the first in CI).
		"user id=n1 text=hi form=image\nreply\nreload\nsay",
		"user id=n1 form=image\nreply\nreload\nsay",
	} {
		c := Case{Check: sayAfterReload, Data: harness.OffAny, Script: script(t, found)}
		f, err := c.Play("")
		if err != nil || f == nil {
			t.Fatalf("the planted check does not fail on\n%s\n(%v)", found, err)
		}
		red := Reduce(c, f, "")
		if got := ops.String(red.Case.Script); !red.Reproduced || got != want {
			t.Errorf("reduced\n%s\nto\n%s\nwant\n%s", found, got, want)
		}
	}
}
