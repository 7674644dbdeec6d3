package reconstruct

import (
	"fmt"

	"sessiondag/model"
)

// diff is one field in which a stored file and what the script wrote for
// it differ.
type diff struct {
	file    string // history/<name> or meta.json
	id      string
	field   string // created_at, metadata.worker_id, metadata (key order), …
	stored  string // JSON, or (absent)
	written string
	class   string // the gap's class (gaps.go), "" when the op language carries the field
}

// writes is what a script wrote, as the directory would hold it: each
// node's file (name and object) in append order, and meta.json.
type writes struct {
	ids  []string
	doc  map[string]*model.Object
	name map[string]string
	meta *model.Object
}

// modelWrites are model.Legacy's writes.
func (b *builder) modelWrites() *writes {
	w := &writes{ids: b.leg.IDsFrom(0), doc: map[string]*model.Object{}, name: map[string]string{}, meta: b.leg.Meta()}
	for _, id := range w.ids {
		n := b.leg.Node(id)
		w.doc[id], w.name[id] = nodeDoc(n), fileName(n.Seq, n.Role, n.ID)
	}
	return w
}

// compareAll compares every stored row with the node the script wrote for
// it (file name, every field, metadata key by key and in order), then
// meta.json; rows are in seq order, so the first diff is the first row's.
func compareAll(d *Dir, w *writes) []diff {
	var out []diff
	for _, r := range d.Rows {
		doc := w.doc[r.ID]
		if doc == nil {
			out = append(out, diff{file: r.File, id: r.ID, field: "id", stored: jsonText(r.ID), written: "(absent)"})
			continue
		}
		out = append(out, rowDiffs(d, r, doc, w.name[r.ID])...)
	}
	if len(d.Rows) < len(w.ids) {
		id := w.ids[len(d.Rows)]
		out = append(out, diff{file: "history/", id: id, field: "id", stored: "(absent)", written: jsonText(id)})
	}
	return append(out, metaDiffs(d.Meta, w.meta)...)
}

// nodeDoc is a node as its file holds it (model.writeSessionDir's fields
// and order).
func nodeDoc(n *model.Node) *model.Object {
	o := &model.Object{}
	meta := n.Metadata
	if meta == nil {
		meta = &model.Object{}
	}
	for _, f := range []model.Field{{Key: "id", Val: n.ID}, {Key: "created_at", Val: n.CreatedAt},
		{Key: "seq", Val: model.Int(fmt.Sprint(n.Seq))}, {Key: "role", Val: n.Role}, {Key: "name", Val: n.Name},
		{Key: "input", Val: n.Input}, {Key: "output", Val: n.Output}, {Key: "called_by", Val: n.CalledBy},
		{Key: "reads", Val: n.Reads}, {Key: "metadata", Val: meta}} {
		o.Set(f.Key, f.Val)
	}
	return o
}

// fileName is the name the writers give a node's file.
func fileName(seq int, role, id string) string {
	letter := "x"
	if role != "" {
		letter = role[:1]
	}
	return fmt.Sprintf("history/%04d-%s-%s.json", seq, letter, id)
}

// rowDiffs lists the fields in which a stored row and the written node
// differ.
func rowDiffs(dir *Dir, r *Row, doc *model.Object, name string) []diff {
	var out []diff
	add := func(field, stored, written string) {
		d := diff{file: r.File, id: r.ID, field: field, stored: stored, written: written}
		if d.class = gapClass(r, field, stored, written); d.class == "" && namesCommit(dir, field, stored, written) {
			d.class = gapContext
		}
		out = append(out, d)
	}
	if name != r.File {
		add("file name", jsonText(r.File), jsonText(name))
	}
	if jsonText(r.Obj) == jsonText(doc) {
		return out
	}
	objectDiffs("", r.Obj, doc, add)
	return out
}

// objectDiffs calls add for each key of stored and written whose value
// differs (one level into metadata and input), and once more when both
// hold the same keys in another order.
func objectDiffs(prefix string, stored, written *model.Object, add func(field, stored, written string)) {
	for _, f := range stored.Fields {
		w, ok := written.Get(f.Key)
		if !ok {
			add(prefix+f.Key, jsonText(f.Val), "(absent)")
			continue
		}
		so, sok := f.Val.(*model.Object)
		wo, wok := w.(*model.Object)
		if sok && wok && so != nil && wo != nil && (f.Key == "metadata" || f.Key == "input") && prefix == "" {
			objectDiffs(f.Key+".", so, wo, add)
			continue
		}
		if jsonText(f.Val) != jsonText(w) {
			add(prefix+f.Key, jsonText(f.Val), jsonText(w))
		}
	}
	for _, f := range written.Fields {
		if !stored.Has(f.Key) {
			add(prefix+f.Key, "(absent)", jsonText(f.Val))
		}
	}
	if sameKeys(stored, written) && !sameOrder(stored, written) {
		add(prefix+"(key order)", keyList(stored), keyList(written))
	}
}

func sameKeys(a, b *model.Object) bool {
	if len(a.Fields) != len(b.Fields) {
		return false
	}
	for _, f := range a.Fields {
		if !b.Has(f.Key) {
			return false
		}
	}
	return true
}

func sameOrder(a, b *model.Object) bool {
	for i := range a.Fields {
		if a.Fields[i].Key != b.Fields[i].Key {
			return false
		}
	}
	return true
}

func keyList(o *model.Object) string {
	keys := make([]any, len(o.Fields))
	for i, f := range o.Fields {
		keys[i] = f.Key
	}
	return jsonText(keys)
}

// metaDiffs compares meta.json with the one the writers wrote: head_id
// first (what the load starts from), then every other key.
func metaDiffs(stored, written *model.Object) []diff {
	switch {
	case stored == nil && written == nil:
		return nil // the folder holds none, and a folder edit says so (folder.go)
	case stored == nil:
		return []diff{{file: "meta.json", field: "meta.json", stored: "(absent)", written: "(a file)",
			class: ""}}
	}
	var out []diff
	sh, _ := stored.Get("head_id")
	wh, _ := written.Get("head_id")
	if jsonText(sh) != jsonText(wh) {
		d := diff{file: "meta.json", field: "head_id", stored: jsonText(sh), written: jsonText(wh)}
		if (sh == nil || sh == "") && (wh == nil || wh == "") {
			d.class = gapMeta // no head either way: null where the writers write ""
		}
		out = append(out, d)
	}
	if jsonText(stored) == jsonText(written) {
		return out
	}
	objectDiffs("", stored, written, func(field, s, w string) {
		if field != "head_id" {
			out = append(out, diff{file: "meta.json", field: field, stored: s, written: w, class: gapMeta})
		}
	})
	return out
}
