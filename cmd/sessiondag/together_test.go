package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTogether: an implementation that writes the user's message and the
// start of its reply in one step (serve --together user+reply: the reply's
// row is stored as soon as the user's is) declares the pair, and the
// harness does not judge the views between the two ops. Each part is shown
// able to fail:
//   - declared, a web chat replays to exit 0; the same process with the
//     declaration taken out of its hello fails at op 2, where it shows the
//     reply before the reply op;
//   - a declared pair is still judged after its second op: the flags-off
//     writers claiming the target fail a web turn typed after a CLI turn
//     the browser never saw (a stale client head) at its reply (op 9),
//     where without the pair they fail at its user op (op 8);
//   - a script with another op between the two is not applicable (exit 3, undecided),
//     and so is one that ends between them.
func TestTogether(t *testing.T) {
	shapes := filepath.Join("..", "..", "corpus", "ops", "shapes")
	chat := filepath.Join(shapes, "01-plain-web-chat.ops")
	together := served("--flags all --mint --together user+reply")
	undeclared := together + ` | sed -u 's/,"together":\[\["user","reply"\]\]//'`
	overclaiming := `sed -u 's/"config":"target"/"config":"off"/' | ` + served("--flags off --together user+reply") +
		` | sed -u 's/"claims":"legacy"/"claims":"target"/; s/"configs":\["off"\]/"configs":["target"]/'`

	dir := t.TempDir()
	between := filepath.Join(dir, "between.ops")
	ends := filepath.Join(dir, "ends.ops")
	stale := filepath.Join(dir, "stale.ops")
	for _, f := range []struct{ path, text string }{
		{stale, "session id=stale\nuser id=u1 text=hi\nreply\ndone\ndispatch id=d1 text=cli\nreply\ndone\nuser id=u2 text=again\nreply\ndone\n"},
		{between, "session id=between\nuser id=u1 text=hi\ncrash\n"},
		{ends, "session id=ends\nuser id=u1 text=hi\nreply\ndone\nuser id=u2 text=again\n"},
	} {
		if err := os.WriteFile(f.path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"declared", []string{"replay", chat, "--impl", together}, 0, "target, cutoff, cards hold after every op"},
		{"undeclared", []string{"replay", chat, "--check", "target", "--impl", undeclared}, 1, "the loaded chain is not the intended conversation, after op 2\n"},
		{"judged after the second op", []string{"replay", stale, "--check", "target", "--impl", overclaiming}, 1, "the loaded chain is not the intended conversation, after op 9\n"},
		{"judged at the first op without the pair", []string{"replay", stale, "--check", "target", "--impl",
			strings.Replace(overclaiming, " --together user+reply", "", 1)}, 1, "the loaded chain is not the intended conversation, after op 8\n"},
		{"an op between", []string{"replay", between, "--impl", together}, 3, "writes user and reply ops in one step, with no op between them"},
		{"ends between", []string{"replay", ends, "--impl", together}, 3, "the script ends after op 5 (user id=u2 text=again)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out := runCmd(t, c.args...)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d, want %d saying %q\n%s", code, c.code, c.want, out)
			}
		})
	}
}
