package reconstruct

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/ops"
)

func parse(t *testing.T, text string) []ops.Op {
	t.Helper()
	script, err := ops.ParseString(text)
	require.NoError(t, err)
	return script
}

// has reports whether the script holds the line.
func hasLine(script []ops.Op, line string) bool {
	for _, op := range script {
		if ops.Format(op) == line {
			return true
		}
	}
	return false
}

// TestBrowserOps: the browser ops a web row shows are inferred, each the
// least the row needs: none where the browser is on the row it records, a
// reload where the server's head is, a checkout elsewhere, another writer
// where it records none though the store has a head; a web turn typed in a browser not on
// the server's head is ambiguous, with the checkout reading listed.
func TestBrowserOps(t *testing.T) {
	turn := "reply\ndone\n"
	for _, c := range []struct {
		name, script, line, verdict string
	}{
		{"reload", "user id=u1 text=a\n" + turn + "dispatch id=d1 text=b\n" + turn + "reload\nuser id=u2 text=c\n" + turn, "reload", Reconstructed},
		{"checkout", "user id=u1 text=a\n" + turn + "user id=u2 text=b\n" + turn + "checkout id=u1_reply\nuser id=u3 text=c\n" + turn, "checkout id=u1_reply", Reconstructed},
		// A writer's conversation starts at the store's head (R11), which a
		// writer taking over reads from meta.json: after a script's row (no
		// meta written, R9) that is none, and its web turn records no parent.
		{"writer", "script what=fn id=s1\nwriter name=w2 set=off\nuser id=u1 text=a\n" + turn, "writer name=w2 set=off", Reconstructed},
		{"stale", "user id=u1 text=a\n" + turn + "dispatch id=d1 text=b\n" + turn + "user id=u2 text=c\n" + turn, "", Ambiguous},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := checkRoundTrip(t, c.name, parse(t, c.script), flags.Off)
			require.Equal(t, c.verdict, res.Verdict, ops.String(res.Script))
			if c.line != "" {
				require.True(t, hasLine(res.Script, c.line), "no %q in\n%s", c.line, ops.String(res.Script))
			}
			if c.verdict == Ambiguous {
				require.Len(t, res.Alternatives, 1)
				require.Contains(t, res.Alternatives[0].Change, "checkout id=u1_reply")
			}
		})
	}
}

// TestClockWhereTheRowsShow: a clock op only where a row's created_at is
// not the writers' clock's, with that time.
func TestClockWhereTheRowsShow(t *testing.T) {
	res := checkRoundTrip(t, "plain", parse(t, "user id=u1 text=a\nreply\ndone\n"), flags.Off)
	for _, op := range res.Script {
		require.NotEqual(t, "clock", op.Kind(), ops.String(res.Script))
	}
	res = checkRoundTrip(t, "clock", parse(t, "user id=u1 text=a\nreply\nclock at=1782003600.25\ndone\nuser id=u2 text=b\n"), flags.Off)
	require.True(t, hasLine(res.Script, "clock at=1782003600.25"), ops.String(res.Script))
}

// TestRerunWithoutRow: a reply to a turn that is no longer pending shows a
// rerun that wrote no row (retry of a turn without an answer).
func TestRerunWithoutRow(t *testing.T) {
	res := checkRoundTrip(t, "rerun", parse(t, "user id=u1 text=a\ncrash\nmanual id=f1 name=f args={}\nend\nretry of=u1\nreply\ndone\n"), flags.Off)
	require.True(t, hasLine(res.Script, `retry of=u1`), ops.String(res.Script))
}

// TestFlagsFromTheRows: rows that record their predecessor were written
// with flag A on: the script says so, and a row without one after them
// with every flag off.
func TestFlagsFromTheRows(t *testing.T) {
	res := checkRoundTrip(t, "flip", parse(t, "user id=u1 text=a\nreply\ndone\nflag set=all\nuser id=u2 text=b\nreply\ndone\nflag set=off\nuser id=u3 text=c\n"), flags.Off)
	var sets []string
	for _, op := range res.Script {
		if f, ok := op.(ops.Flag); ok {
			sets = append(sets, f.Set)
		}
	}
	require.Equal(t, []string{"all", "off"}, sets, ops.String(res.Script))
}

// edit rewrites one history file of dir, replacing old by new once.
func edit(t *testing.T, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, "history", file)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Contains(t, string(b), old)
	require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
}

// TestGapsAndUnexplained: a value no op carries (a reply's worker) is a gap
// of its class, the loads agreeing; a field an op writes (a web turn's
// parent) makes its row the first unexplained one, naming the file, the op
// and the field.
func TestGapsAndUnexplained(t *testing.T) {
	script := parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone\n")
	dir := writeSession(t, "s", script, flags.Off)
	edit(t, dir, "0002-l-u1_reply.json", `"worker_id": "w1"`, `"worker_id": "4313-1521f0"`)
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Reconstructed, res.Verdict, "%+v", res.First)
	require.False(t, res.Exact)
	require.Equal(t, []Gap{{Class: gapProcess, Count: 1, First: "history/0002-l-u1_reply.json metadata.worker_id"}}, res.Gaps)

	dir = writeSession(t, "s", script, flags.Off)
	edit(t, dir, "0003-u-u2.json", `"parent_id": "u1_reply"`, `"parent_id": "zz"`)
	res, err = Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict)
	require.Equal(t, "history/0003-u-u2.json", res.First.File)
	require.Equal(t, "u2", res.First.ID)
	require.Equal(t, "metadata.parent_id", res.First.Field)
}

// TestBadFiles: a file that is no node, or a field of the wrong type, is
// the first unexplained row, named with its field; nothing panics on a
// file cut anywhere.
func TestBadFiles(t *testing.T) {
	script := parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\n")
	dir := writeSession(t, "s", script, flags.Off)
	edit(t, dir, "0001-u-u1.json", `"seq": 1`, `"seq": "1"`)
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict)
	require.Equal(t, "history/0001-u-u1.json", res.First.File)
	require.Contains(t, res.First.Why, `field "seq"`)

	dir = writeSession(t, "s", script, flags.Off)
	p := filepath.Join(dir, "history", "0002-l-u1_reply.json")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	for cut := 0; cut < len(b); cut += 7 {
		require.NoError(t, os.WriteFile(p, b[:cut], 0o644))
		res, err := Path(dir)
		require.NoError(t, err)
		require.Equal(t, Unexplained, res.Verdict, "cut at %d", cut)
	}
	_, err = Path(filepath.Join(dir, "nothing-here"))
	require.Error(t, err)
}

// TestReadsOnly: reconstructing a directory leaves every file of it as it
// was (names, bytes, times).
func TestReadsOnly(t *testing.T) {
	dir := writeSession(t, "s", parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\ndispatch id=d1 text=b\ncrash\nuser id=u2 text=c\n"), flags.Off)
	before := snapshot(t, dir)
	_, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, before, snapshot(t, dir))
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b := []byte{}
		if !fi.IsDir() {
			b, err = os.ReadFile(p)
		}
		out[p] = fi.ModTime().String() + fi.Mode().String() + string(b)
		return err
	}))
	return out
}

// TestGapsHeldToReaders: a value the op language does not carry may differ
// only where no reader places a row by it. A dispatcher's channel name is
// such a value for the original's readers, but flag A's derivation tells a
// CLI root fork from any other turn: the loads of the stored and the
// replayed data part, and the row is unexplained, saying so. A field an
// op writes and no inference reads (the reads list) is unexplained too.
func TestGapsHeldToReaders(t *testing.T) {
	script := parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\ndispatch id=d1 text=b parent=none rooted\nreply\ndone\n")
	dir := writeSession(t, "s", script, flags.Off)
	edit(t, dir, "0003-u-d1.json", `"source": "cli"`, `"source": "tui"`)
	edit(t, dir, "0004-l-d1_reply.json", `"source": "cli"`, `"source": "tui"`)
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict, "gaps %v", res.Gaps)
	require.Contains(t, res.First.Why, "change what a reader shows")

	dir = writeSession(t, "s", script, flags.Off)
	edit(t, dir, "0002-l-u1_reply.json", `"reads": []`, `"reads": ["x"]`)
	res, err = Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict)
	require.Equal(t, "reads", res.First.Field)
}

// TestCheckoutBeforeTheConversation: a server that has made no conversation
// of the session (after a crash) has no browser head for a turn to move; a
// checkout makes none there (R's handle_checkout_branch sets the head of a
// conversation the server has made), so a web turn after a dispatcher turn
// that moved the store's head records that head, not the checkout's row. A
// reload that made the conversation before the dispatcher turn puts the
// browser where the web turn records it, as a checkout right before the
// web turn does: ambiguous, the reload's place (the script's) listed
// (generated seed 268 of the audit's clean sessions).
func TestCheckoutBeforeTheConversation(t *testing.T) {
	script := parse(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ncrash\nreload\nfork-root id=d1 text=c\nreply\ndone\nuser id=u3 text=d\nreply\ndone\n")
	res := checkRoundTrip(t, "s", script, flags.Off)
	require.Equal(t, Ambiguous, res.Verdict, ops.String(res.Script))
	var changes []string
	found := false
	for _, a := range res.Alternatives {
		changes = append(changes, a.Change)
		found = found || harness.SameView(a.View, viewOf(t, script))
	}
	require.Contains(t, changes, "reload before the op of history/0005-u-d1.json")
	require.True(t, found, "the script's view is no reading: %v", changes)

	// A checkout after the crash makes no conversation: the web turn
	// records the dispatcher turn's reply, the store's head.
	script = parse(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ncrash\ncheckout id=u1_reply\nfork-root id=d1 text=c\nreply\ndone\nuser id=u3 text=d\nreply\ndone\n")
	dir := writeSession(t, "s2", script, flags.Off)
	raw, err := os.ReadFile(filepath.Join(dir, "history", "0007-u-u3.json"))
	require.NoError(t, err)
	require.Contains(t, string(raw), `"parent_id": "d1_reply"`)
}

// TestCheckoutPlace: a checkout the rows show is placed right before the
// row that records it; where an op between the last move of the browser
// and that row reads the server's head (a manual run continues it), the
// checkout may have come before that op, and the session is ambiguous, the
// earlier place listed.
func TestCheckoutPlace(t *testing.T) {
	res := checkRoundTrip(t, "s", parse(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone\ncheckout id=u1_reply\nmanual id=f1 name=f args={}\nend\nuser id=u3 text=c\nreply\ndone\n"), flags.Off)
	require.Equal(t, Ambiguous, res.Verdict)
	var changes []string
	for _, a := range res.Alternatives {
		changes = append(changes, a.Change)
	}
	require.Contains(t, changes, "checkout id=u1_reply before the op of history/0005-c-f1.json")
}

// TestMetaKeysAreAGap: meta.json's own keys, which no op writes (a title the
// user gave the session, a project, as the original's meta.json holds), are
// a gap of their class: the session is reconstructed up to it, not exactly,
// the field named.
func TestMetaKeysAreAGap(t *testing.T) {
	dir := writeSession(t, "s", parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\n"), flags.Off)
	p := filepath.Join(dir, "meta.json")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	text := strings.Replace(string(b), `"title": "generated"`, `"title": "renamed by the user"`, 1)
	text = strings.Replace(text, `"head_id"`, `"project_id": "default",`+"\n  "+`"head_id"`, 1)
	require.NotEqual(t, string(b), text)
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Reconstructed, res.Verdict, "%+v", res.First)
	require.False(t, res.Exact)
	require.Equal(t, []Gap{{Class: gapMeta, Count: 2, First: "meta.json title"}}, res.Gaps)
}

// TestCheckoutBeforeAMadeConversation: after a crash (a turn left without
// its reply shows it) the server has no conversation of the session; the
// manual run after it makes one at the store's head. A checkout the next
// web row shows may have come before the run (it makes the conversation
// then, and the run continues it): the earlier place is listed.
func TestCheckoutBeforeAMadeConversation(t *testing.T) {
	script := parse(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\ncrash\ncheckout id=u1_reply\nmanual id=f1 name=f args={}\nend\nuser id=u3 text=c\nreply\ndone\n")
	res := checkRoundTrip(t, "s", script, flags.Off)
	require.Equal(t, Ambiguous, res.Verdict, ops.String(res.Script))
	var changes []string
	for _, a := range res.Alternatives {
		changes = append(changes, a.Change)
	}
	require.Contains(t, changes, "checkout id=u1_reply before the op of history/0004-c-f1.json")
}

// TestCheckoutBeforeARerunTurn: the turn an edit on the path reruns is not
// on the path itself, but the edit's intended parent is its: a checkout
// that turn's row shows may have come before the turns between, which
// changes the path, and the earlier place is listed.
func TestCheckoutBeforeARerunTurn(t *testing.T) {
	script := parse(t, "user id=u1 text=a\nreply\ndone\nuser id=u2 text=b\nreply\ndone\ncheckout id=u1_reply\nfork-root id=d1 text=c\nreply\ndone\nuser id=u3 text=d\nreply\ndone\nedit of=u3 id=e1 text=x\nreply\ndone\n")
	res := checkRoundTrip(t, "s", script, flags.Off)
	require.Equal(t, Ambiguous, res.Verdict, ops.String(res.Script))
	var changes []string
	for _, a := range res.Alternatives {
		changes = append(changes, a.Change)
	}
	require.Contains(t, changes, "checkout id=u1_reply before the op of history/0005-u-d1.json")
}

// TestAttachNamingAStoredCommit: an attach row's source_commit_id naming a
// context commit the folder holds (the context renderer's, switched on) is a
// gap of its own class; one naming no commit of the folder leaves the row
// unexplained.
func TestAttachNamingAStoredCommit(t *testing.T) {
	script := "session id=s\nuser id=u1 text=a\nreply\ndone\n" +
		"spawn mode=inherit cmd=c1 id=s1 attach=a1 text=dig label=probe\n"
	dir := writeSession(t, "s", parse(t, script), flags.Off)
	files, err := filepath.Glob(filepath.Join(dir, "history", "*-l-a1.json"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	b, err := os.ReadFile(files[0])
	require.NoError(t, err)
	text := strings.Replace(string(b), `"source_commit_id": null`, `"source_commit_id": "c0ffee000001"`, 1)
	require.NotEqual(t, string(b), text)
	require.NoError(t, os.WriteFile(files[0], []byte(text), 0o644))

	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict, "a commit the folder does not hold")
	require.Equal(t, "metadata.attach", res.First.Field)

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "context", "commits"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "context", "commits", "c0ffee000001.json"), []byte(`{"id": "c0ffee000001"}`), 0o644))
	res, err = Path(dir)
	require.NoError(t, err)
	require.Equal(t, Reconstructed, res.Verdict, "%+v", res.First)
	require.Contains(t, res.Gaps, Gap{Class: gapContext, Count: 1, First: "history/" + filepath.Base(files[0]) + " metadata.attach"})
}
