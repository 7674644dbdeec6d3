package props

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
)

// TestFilesCostBoundedMemory: the implementation's cold reader costs at
// most store.MemoryPerByte times a node file's bytes (and
// store.MemorySlack) in memory: a file of small values that would cost
// more once parsed — a list of numbers, of small objects, or one held as
// JSON in a code row's extra, which the view parses — is refused before it
// is built, naming the file, and a file of as many bytes of text loads and
// shows. (The cost itself is held to what the parse allocates by
// impl/node's TestCostBoundsTheParse.)
func TestFilesCostBoundedMemory(t *testing.T) {
	t.Parallel()
	inProcessOnly(t, "the implementation's reader of a session directory")
	list := func(v string) string { return "[" + strings.Repeat(v+", ", (256<<10)/(len(v)+2)) + v + "]" }
	user := `{"id": "u1", "created_at": 1.0, "seq": 1, "role": "user", "name": "", "input": null, "output": OUTPUT, ` +
		`"called_by": "ROOT", "reads": [], "metadata": {"source": "web"}}`
	code := `{"id": "u1", "created_at": 1.0, "seq": 1, "role": "code", "name": "f", "input": null, "output": "done", ` +
		`"called_by": "ROOT", "reads": [], "metadata": {"extra": EXTRA}}`
	for _, c := range []struct {
		name, file string
		refused    bool
	}{
		{"numbers", strings.Replace(user, "OUTPUT", list("0"), 1), true},
		{"objects", strings.Replace(user, "OUTPUT", list(`{"a": 0}`), 1), true},
		{"json in extra", strings.Replace(code, "EXTRA", `"`+list("0")+`"`, 1), true},
		{"text", strings.Replace(user, "OUTPUT", `"`+strings.Repeat("some words ", (256<<10)/11)+`"`, 1), false},
	} {
		dir := filepath.Join(t.TempDir(), "local_00000000aa")
		if err := os.MkdirAll(filepath.Join(dir, "history"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "history", "0001-u-u1.json"), []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(dir)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		refused := len(s.Problems) == 1 && s.Problems[0].File == "history/0001-u-u1.json" &&
			strings.Contains(s.Problems[0].Error(), "in memory once parsed, over the limit")
		shown := len(webui.Load(s, flags.Off).Messages)
		switch {
		case c.refused && (!refused || s.Len() != 0):
			t.Errorf("%s: a file of %d bytes: %d nodes, problems %v: want it refused for its cost", c.name, len(c.file), s.Len(), s.Problems)
		case !c.refused && (len(s.Problems) > 0 || shown != 1):
			t.Errorf("%s: a file of %d bytes: %d rows shown, problems %v: want it loaded", c.name, len(c.file), shown, s.Problems)
		}
	}
}
