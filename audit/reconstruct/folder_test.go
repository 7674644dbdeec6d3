package reconstruct

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"sessiondag/checker/campaign"
	"sessiondag/checker/driver"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/ops"
)

// writeFolder writes what script makes, through the implementation's
// writers, into a fresh directory named name, then edits the folder as
// the original leaves it (checker/campaign's edits, the cold check's).
func writeFolder(t testing.TB, parent, name string, script []ops.Op, folder []campaign.FolderEdit) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	_, err := driver.BuildWith(script, dir, flags.Off, store.WriteOptions{NoSync: true})
	require.NoError(t, err)
	edits, err := campaign.Edits(campaign.Case{Script: script, Folder: folder})
	require.NoError(t, err)
	for _, e := range edits {
		p := filepath.Join(dir, filepath.FromSlash(e.Path))
		if e.Remove {
			require.NoError(t, os.Remove(p))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, e.Content, 0o644))
	}
	return dir
}

// tree is every file below dir, by its path, with its bytes.
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	}))
	return out
}

// sameTree holds the folder a reconstruction replays to to the folder it
// was read from: the same files, byte for byte.
func sameTree(t testing.TB, name, dir, again string) {
	t.Helper()
	want, got := tree(t, dir), tree(t, again)
	for p, b := range want {
		require.Equal(t, b, got[p], "%s: %s: the reconstruction replays to other bytes", name, p)
	}
	for p := range got {
		_, ok := want[p]
		require.True(t, ok, "%s: the reconstruction replays to a file the folder does not hold: %s", name, p)
	}
}

// TestNoMetaRoundTrip: a folder whose rows a program appended without a
// turn ending holds no meta.json (the original writes it when a turn ends):
// read as the script with the folder edit that removes it, replayed byte
// for byte, where the head the script persists is the one a reader of the
// folder falls back to; where it is not (a failed web turn persists its
// user row, the folder's last row is the failed reply), no script writes
// the folder, and the row is meta.json.
func TestNoMetaRoundTrip(t *testing.T) {
	noMeta := []campaign.FolderEdit{{Kind: campaign.FolderNoMeta}}
	for _, text := range []string{
		"legacy-user id=n0 text=hello\n",
		"legacy-user id=n0 text=a parent=null\nlegacy-reply id=n1 text=b parent=n0\n",
		"script what=fn id=s1\nscript what=exec id=s2\n",
		"user id=u1 text=a\nreply\ndone\ncrash\n",
	} {
		res := checkFolderRoundTrip(t, "s", parse(t, "session id=s\n"+text), noMeta)
		require.Equal(t, Reconstructed, res.Verdict, text)
	}
	dir := writeFolder(t, t.TempDir(), "s", parse(t, "session id=s\nuser id=u1 text=a\nreply\nerror-folded type=E msg=boom\n"), noMeta)
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict, ops.String(res.Script))
	require.Equal(t, "meta.json", res.First.File)
	require.Contains(t, res.First.Why, "changes what a reader shows")
}

// TestMetaUnreadable: a meta.json that is no JSON object is named as the
// first unexplained file, never read as missing.
func TestMetaUnreadable(t *testing.T) {
	dir := writeSession(t, "s", parse(t, "session id=s\nuser id=u1 text=a\nreply\ndone\n"), flags.Off)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "meta.json"), []byte("[1]"), 0o644))
	res, err := Path(dir)
	require.NoError(t, err)
	require.Equal(t, Unexplained, res.Verdict)
	require.Equal(t, "meta.json", res.First.File)
	require.Contains(t, res.First.Why, "not a JSON object")
}
