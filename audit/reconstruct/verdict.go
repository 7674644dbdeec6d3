package reconstruct

import (
	"fmt"

	"sessiondag/ops"
)

// result judges the build: the first unexplained row, or the whole
// comparison (gaps allowed only where the loads agree), then the
// alternatives.
func (b *builder) result() *Result {
	res := &Result{Dir: b.d.Path, ID: b.d.ID, Rows: len(b.d.Rows), Script: b.script}
	if b.first == nil {
		b.judge(res)
	}
	if b.first != nil {
		res.Verdict, res.First = Unexplained, b.first
		return res
	}
	res.View = b.t.View()
	alts, whole, open := b.alternatives(res.View)
	res.Alternatives, res.Open, res.Rebuilt = alts, open, b.rebuilt
	switch {
	case len(alts) > 0:
		res.Verdict = Ambiguous
	case !whole || len(open) > 0:
		res.Verdict = Undecided
		if !whole {
			res.Open = append(res.Open, fmt.Sprintf("not every place of a browser op was tried (%d replays at most)", maxTries))
		}
	default:
		res.Verdict = Reconstructed
	}
	return res
}

// judge builds the script again through the implementation's writers
// (which must agree with model.Legacy's), compares the writes with the
// files (the implementation's when a flag is on: model.Legacy writes every
// flag off), and holds a reconstruction up to gaps to the readers.
func (b *builder) judge(res *Result) {
	impl, replayed, disagree := b.implWrites()
	res.Disagree, res.Folder = disagree, b.folder(true)
	w := b.modelWrites()
	if b.flagged && impl != nil {
		w = impl
	}
	b.judgeWrites(res, b.edited(w))
	if b.first != nil || replayed == nil {
		return
	}
	if b.noMeta() {
		b.metaUnread(replayed)
	}
	if b.first != nil || res.Exact {
		return
	}
	if len(res.Folder) > 0 {
		if replayed = b.replayedFolder(res.Folder); b.first != nil {
			return
		}
	}
	why, err := confirmLoads(b.d.Path, replayed)
	if err != nil {
		why = err.Error()
	}
	if why != "" {
		b.first = &FirstRow{File: res.Gaps[0].First, Why: "the values the op language does not carry change what a reader shows: " + why}
	}
}

// judgeWrites compares the writes w with the files: exact, or up to gaps;
// a field the op language carries that differs makes its row the first
// unexplained one.
func (b *builder) judgeWrites(res *Result, w *writes) {
	diffs := compareAll(b.d, w)
	byClass := map[string]int{}
	for _, d := range diffs {
		if d.class == "" {
			why := "the op that writes a row of this shape writes this field otherwise"
			if d.field == "meta.json" {
				why = "the writers write meta.json from a session's first op on (the original when a turn ends): no script leaves a directory without it"
			}
			b.first = &FirstRow{File: d.file, ID: d.id, Field: d.field, Stored: d.stored, Written: d.written,
				Op: b.opOf(d.id), Why: why}
			return
		}
		if byClass[d.class] == 0 {
			res.Gaps = append(res.Gaps, Gap{Class: d.class, First: d.file + " " + d.field})
		}
		byClass[d.class]++
	}
	for i := range res.Gaps {
		res.Gaps[i].Count = byClass[res.Gaps[i].Class]
	}
	res.Exact = len(diffs) == 0
	res.Dropped = b.dropped
}

// opOf is the script line of the op that wrote row id ("" if none did).
func (b *builder) opOf(id string) string {
	if at, ok := b.wroteAt[id]; ok {
		return ops.Format(b.script[at])
	}
	return ""
}

// compareWrites are the writes a rebuild is compared with: model.Legacy's,
// or the implementation's once a flag was on.
func (b *builder) compareWrites() *writes {
	if b.flagged {
		if w, _, _ := b.implWrites(); w != nil {
			return b.edited(w)
		}
	}
	return b.edited(b.modelWrites())
}
