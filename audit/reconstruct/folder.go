package reconstruct

import (
	"fmt"
	"os"

	"sessiondag/checker/campaign"
	"sessiondag/impl/store"
)

// The folder besides the writes. The original leaves some session folders
// otherwise than its writes alone would: a model-called run numbered by the
// function subprocess (subprocess.go), no meta.json where nothing wrote one
// yet (the original writes it when a turn ends, so a folder whose first
// turn never ended, or whose rows a program appended directly, has none).
// The project writes these as folder edits (checker/campaign, the cold
// check's `#! folder` lines), not ops; a reconstruction names the ones the
// folder shows beside its script, and its writes with them applied are the
// files.

// folder is the reconstruction's folder edits, as directives of its
// script (withMeta: the missing meta.json too).
func (b *builder) folder(withMeta bool) []campaign.FolderEdit {
	var out []campaign.FolderEdit
	for _, id := range b.runs {
		out = append(out, campaign.FolderEdit{Kind: campaign.FolderSubprocess, ID: id})
	}
	if withMeta && b.noMeta() {
		out = append(out, campaign.FolderEdit{Kind: campaign.FolderNoMeta})
	}
	return out
}

// noMeta reports whether the folder holds rows and no meta.json.
func (b *builder) noMeta() bool {
	return b.d.Meta == nil && b.d.MetaErr == nil && len(b.d.Rows) > 0
}

// edited is the writes w with the folder edits applied.
func (b *builder) edited(w *writes) *writes {
	w = renumber(w, b.runs)
	if w != nil && b.noMeta() {
		c := *w
		c.meta = nil
		w = &c
	}
	return w
}

// metaUnread holds a folder without meta.json to the readers: the meta.json
// the script writes (its persisted head) must change nothing a reader shows
// of the rows, under any config, or the script means a head the folder does
// not hold. replayed is the replayed data with meta.json.
func (b *builder) metaUnread(replayed *store.Store) {
	if len(b.runs) > 0 {
		if replayed = b.replayedFolder(b.folder(false)); b.first != nil {
			return
		}
	}
	why, err := confirmLoads(b.d.Path, replayed)
	if err != nil {
		why = err.Error()
	}
	if why != "" {
		b.first = &FirstRow{File: "meta.json", Field: "meta.json", Stored: "(absent)", Written: "(a file)",
			Why: "the folder holds no meta.json, and the head the script persists changes what a reader shows: " + why}
	}
}

// replayedFolder is the replayed data with the folder edits, as a directory
// holds it (nil, the build stopped, if it cannot be written).
func (b *builder) replayedFolder(folder []campaign.FolderEdit) *store.Store {
	tmp, err := os.MkdirTemp("", "sessiondag-reconstruct-")
	if err == nil {
		defer os.RemoveAll(tmp)
		var s *store.Store
		if s, err = replayedDir(b.d.ID, b.script, folder, tmp); err == nil {
			return s
		}
	}
	b.first = &FirstRow{File: "meta.json", Why: fmt.Sprintf("the replayed data with its folder edits cannot be written: %v", err)}
	return nil
}
