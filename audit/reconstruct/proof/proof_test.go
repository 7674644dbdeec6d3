package proof

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/gen"
	"sessiondag/ops"
)

func parse(t *testing.T, text string) []ops.Op {
	t.Helper()
	s, err := ops.ParseString(text)
	require.NoError(t, err)
	return s
}

// TestRepeatedTurnsFold: turns that do what an earlier one did (whatever
// their ids and texts) fold into it, the ids renamed canonically; a turn a
// later op names stays; the first thinking and text of the script stay.
func TestRepeatedTurnsFold(t *testing.T) {
	text := "session id=s\n" + strings.Repeat("user id=X text=Y\nreply\nsay text=Y\ndone\n", 1)
	for i, id := range []string{"a", "b", "c", "d", "e"} {
		text += strings.NewReplacer("X", id, "Y", string(rune('p'+i))).Replace("user id=X text=Y\nreply\nsay text=Y\ndone\n")
	}
	text = strings.Replace(text, "user id=X text=Y\nreply\nsay text=Y\ndone\n", "", 1)
	p := Place(parse(t, text))
	require.Equal(t, 20, p.Ops)
	require.Equal(t, "session id=s\nuser id=n1 text=p\nreply\nsay text=p\ndone\n", ops.String(p.Skeleton))
	require.True(t, p.Walked, p.Why)

	p = Place(parse(t, text+"retry of=c id=r1\nreply\ndone\n"))
	require.Equal(t, 10, p.SkeletonOps, "the turn the retry names stays:\n%s", ops.String(p.Skeleton))
	require.False(t, p.Walked)
	require.Contains(t, p.Why, "10 ops after folding")
}

// TestWalkBounds: a skeleton is within the walks when it has at most 6 ops
// and no flag or writer op, or at most 5; the flag op that starts a script
// on every flag is its lane, not an op; an argument the walk does not draw
// (a web turn's form) puts it outside.
func TestWalkBounds(t *testing.T) {
	six := "session id=s\nuser id=u1 text=a\nreply\ntool call=c1 name=bash args={} result=ok\ndone\nmanual id=f1 name=f args={}\nend\n"
	require.True(t, Place(parse(t, six)).Walked)
	require.False(t, Place(parse(t, six+"reload\n")).Walked)
	withWriter := strings.Replace(six, "manual id=f1 name=f args={}\nend\n", "writer name=w2 set=off\nreload\n", 1)
	p := Place(parse(t, withWriter))
	require.False(t, p.Walked)
	require.Contains(t, p.Why, "flag or writer ops")
	p = Place(parse(t, strings.Replace(six, "session id=s\n", "session id=s\nflag set=all\n", 1)))
	require.True(t, p.Walked, p.Why)
	require.True(t, p.FlagsOn)
	p = Place(parse(t, "session id=s\nuser id=u1 text=a form=image\nreply\ndone\n"))
	require.False(t, p.Walked)
	require.Contains(t, p.Why, "form")
	rerun := "session id=s\nuser id=u1 text=a\nreply\ndone\nretry of=u1 id=u2\n"
	require.True(t, Place(parse(t, rerun)).Walked)
	p = Place(parse(t, strings.Replace(rerun, "id=u2", "id=u2 web", 1)))
	require.False(t, p.Walked)
	require.Contains(t, p.Why, "older writers' rerun")
}

// TestShapesAgainstTheSuite: a script's shapes are the generator's tally of
// it; those the suite does not require every run to reach are named.
func TestShapesAgainstTheSuite(t *testing.T) {
	p := Place(parse(t, "session id=s\nmanual id=f1 name=f args={}\nend\nmanual id=f2 name=f args={}\nend\nrewind id=f1\n"))
	require.Contains(t, p.Shapes, gen.ShapeManualRow)
	require.Contains(t, p.Shapes, gen.ShapeRewind)
	require.Equal(t, []string{gen.ShapeRewind}, p.Unrequired)
}
