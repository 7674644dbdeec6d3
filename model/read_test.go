package model

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

// headAt is a view's head_id on id.
func headAt(id string) *string { return &id }

func nodeJSON(id string, seq, role, calledBy, meta string) string {
	return `{"id": "` + id + `", "created_at": 1782000000.0, "seq": ` + seq + `, "role": "` + role +
		`", "name": "", "input": null, "output": "x", "called_by": "` + calledBy + `", "reads": [], "metadata": ` + meta + `}`
}

func TestReadSessionDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "local_abc")
	writeFile(t, filepath.Join(dir, "meta.json"), `{"id": "other", "head_id": null, "last_node_id": "u2"}`)
	h := filepath.Join(dir, "history")
	writeFile(t, filepath.Join(h, "0000-u-ROOT.json"), nodeJSON("ROOT", "0", "user", "", `{"display": "root"}`))
	writeFile(t, filepath.Join(h, "9999-u-late.json"), nodeJSON("late", "9999", "user", "ROOT", `{}`))
	writeFile(t, filepath.Join(h, "10000-u-later.json"), nodeJSON("later", "10000", "user", "ROOT", `{}`))
	// duplicate seq: ties keep file-name order; duplicate id: both kept, last wins.
	writeFile(t, filepath.Join(h, "0001-u-u2.json"), nodeJSON("u2", "1", "user", "ROOT", `{"v": 1}`))
	writeFile(t, filepath.Join(h, "0001-l-u1.json"), nodeJSON("u1", "1", "llm", "ROOT", `{}`))
	writeFile(t, filepath.Join(h, "0002-u-u2.json"), nodeJSON("u2", "2", "user", "ROOT", `{"v": 2}`))
	writeFile(t, filepath.Join(h, "0003-u-torn.json"), `{"id": "torn", "seq": 3,`)
	writeFile(t, filepath.Join(h, "0004-u-tmp.json.tmp"), nodeJSON("tmp", "4", "user", "ROOT", `{}`))

	s, err := ReadSessionDir(dir)
	require.NoError(t, err)
	assert.Equal(t, "local_abc", s.ID, "session id = directory name")
	assert.Equal(t, "u2", s.HeadID, "head_id null → last_node_id")
	var got []string
	for _, n := range s.Nodes {
		got = append(got, n.ID)
	}
	assert.Equal(t, []string{"ROOT", "u1", "u2", "u2", "late", "later"}, got)
	assert.Equal(t, Int("2"), s.byID("u2").Metadata.Val("v"))
	assert.Equal(t, Float(1782000000), s.Nodes[1].CreatedAt)

	v := LegacyView(s)
	assert.Equal(t, []string{"u1", "u2", "u2", "late", "later"}, ids(v.Messages), "duplicates both in get_messages")
}

func TestReadSessionDirMissingParts(t *testing.T) {
	_, err := ReadSessionDir(filepath.Join(t.TempDir(), "nope"))
	assert.Error(t, err)

	noMeta := t.TempDir()
	writeFile(t, filepath.Join(noMeta, "history", "0000-u-ROOT.json"), nodeJSON("ROOT", "0", "user", "", `{"display": "root"}`))
	s, err := ReadSessionDir(noMeta)
	require.NoError(t, err, "no meta.json: a session no turn has ended in")
	assert.Equal(t, filepath.Base(noMeta), s.ID)
	assert.Empty(t, s.HeadID)
	assert.Len(t, s.Nodes, 1)

	empty := t.TempDir()
	_, err = ReadSessionDir(empty)
	assert.Error(t, err, "none of the original's files: no session")

	badMeta := t.TempDir()
	writeFile(t, filepath.Join(badMeta, "meta.json"), `[1]`)
	_, err = ReadSessionDir(badMeta)
	assert.Error(t, err)

	noHistory := t.TempDir()
	writeFile(t, filepath.Join(noHistory, "meta.json"), `{"head_id": "gone"}`)
	s, err = ReadSessionDir(noHistory)
	require.NoError(t, err)
	assert.Empty(t, s.Nodes)
	v := LegacyView(s)
	assert.Equal(t, headAt("gone"), v.HeadID)
	assert.Empty(t, v.Chain)
}

// An empty session (meta.json with head_id null, an empty history/) has no
// head: the original's None, which it sends as null, not "".
func TestEmptySessionHeadIsNull(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "local_empty")
	writeFile(t, filepath.Join(dir, "meta.json"), `{"head_id": null}`)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "history"), 0o755))
	s, err := ReadSessionDir(dir)
	require.NoError(t, err)
	v := LegacyView(s)
	assert.Nil(t, v.HeadID)
	assert.Empty(t, v.Chain)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"head_id":null`)
	frame, err := json.Marshal(loadFrame(v))
	require.NoError(t, err)
	assert.JSONEq(t, `{"head_id": null, "chain": []}`, string(frame))
}
