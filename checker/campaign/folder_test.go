package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sessiondag/checker/driver"
	"sessiondag/checker/gen"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/model"
)

const folderScript = `user id=u1 text=a
reply
tool call=c1 name=bash args={} result=ok
fn id=f1 name=word_count args={}
exec id=x1 prompt=p reply=r
end
done
spawn mode=inherit cmd=c2 id=s2 attach=a2 text=sub label=l
user id=u3 text=b
reply
`

// Each folder edit gives the directory the original leaves: the subprocess
// numbering makes the run share its seq with the row before it, the later
// rows one lower; commits are written per finished reply and the attach
// row names its head's; meta.json goes, loses its id or says running; the
// files no load reads are there. Both readers take the result, and the
// model's reader sees the embed statistics of the attach row.
func TestFolderEdits(t *testing.T) {
	s := script(t, folderScript)
	c := Case{Check: harness.Check{Name: "cold", Damage: true}, Script: s, Folder: []FolderEdit{
		{Kind: FolderSubprocess, ID: "f1"}, {Kind: FolderMetaNoID}, {Kind: FolderCommits}, {Kind: FolderMidTurn},
		{Kind: FolderTasks}, {Kind: FolderBackups}}}
	edits, err := Edits(c)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := harness.Cold(s, 0, edits, t.TempDir()); err != nil || f != nil {
		t.Fatalf("the readers disagree on the folder: %v %v", err, f)
	}
	want := map[string]bool{ // path → removed
		"history/0004-c-f1.json": true, "history/0003-c-f1.json": false, // beside 0003-c-u1_reply_t_c1.json, unchanged
		"history/0005-l-x1.json": true, "history/0004-l-x1.json": false,
		"context/commits/cc_u1_reply.json": false, "context/commits/cc_s2_reply.json": false,
		"tasks.json": false, "file_backups/r1/manifest.json": false, "meta.json": false,
	}
	for _, e := range edits {
		if removed, ok := want[e.Path]; ok {
			if e.Remove != removed {
				t.Errorf("%s: removed %v, want %v", e.Path, e.Remove, removed)
			}
			delete(want, e.Path)
		}
		if e.Path == "meta.json" && (strings.Contains(string(e.Content), `"id"`) || !strings.Contains(string(e.Content), `"status": "running"`)) {
			t.Errorf("meta.json: %s", e.Content)
		}
	}
	for p := range want {
		t.Errorf("no edit of %s", p)
	}

	// The model's own reader of that folder shows the attach row's embed
	// statistics, from its head's commit.
	dir := filepath.Join(t.TempDir(), "local_0000000000")
	if _, err := driver.Build(s, dir, flags.Off); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		p := filepath.Join(dir, filepath.FromSlash(e.Path))
		if e.Remove {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, e.Content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ms, err := model.ReadSessionDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	embedded := false
	for _, row := range model.LegacyView(ms).Chain {
		if a, ok := row.Val("attach").(*model.Object); ok && row.Val("id") == "a2" {
			embedded = a.Val("source_commit_id") == "cc_s2_reply" && a.Val("embed_count") != nil
		}
	}
	if !embedded {
		t.Errorf("the attach row a2 on the chain shows no embed statistics of cc_s2_reply")
	}
}

// A node the subprocess numbering rewrites is the one the script wrote:
// a compaction's copy after the run records the session the script names.
func TestFolderEditsOfTheScriptsSession(t *testing.T) {
	s := script(t, "session id=local_5e55100001\n"+folderScript+"done\nuser id=u4 text=c\nreply\ndone\ncompact id=k keep=1\n")
	edits, err := Edits(Case{Script: s, Folder: []FolderEdit{{Kind: FolderSubprocess, ID: "f1"}}})
	if err != nil {
		t.Fatal(err)
	}
	copied := false
	for _, e := range edits {
		if strings.Contains(e.Path, "-k_k1.json") && !e.Remove {
			copied = true
			if !strings.Contains(string(e.Content), `"session_id": "local_5e55100001"`) {
				t.Errorf("%s: %s", e.Path, e.Content)
			}
		}
	}
	if !copied {
		t.Errorf("no edit of the compaction's copy: %+v", edits)
	}
}

// A subprocess numbering of a run the reduced script no longer writes, and
// a meta edit of a script that writes none, are left out; no-meta is drawn
// only where history holds a node.
func TestFolderFollowsTheScript(t *testing.T) {
	edits, err := Edits(Case{Script: script(t, "user id=u1 text=a"), Folder: []FolderEdit{{Kind: FolderSubprocess, ID: "f1"}}})
	if err != nil || len(edits) != 0 {
		t.Errorf("a numbering of a run not written: %+v %v", edits, err)
	}
	for seed := uint64(0); seed < 300; seed++ {
		f, err := DrawFolder(gen.NewSeeded(seed), script(t, "reload"), 0, gen.NewTally())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range f {
			if e.Kind == FolderNoMeta || e.Kind == FolderSubprocess {
				t.Fatalf("seed %d: %s drawn for a script that writes no node", seed, e.Kind)
			}
		}
	}
}
