package reconstruct

import (
	"fmt"

	"sessiondag/checker/driver"
	"sessiondag/checker/harness"
	"sessiondag/impl/flags"
	"sessiondag/impl/store"
	"sessiondag/impl/webui"
	"sessiondag/model"
)

// The second writer and the readers. The script is built again through the
// implementation's writers (impl/writer through checker/driver, in memory),
// which must write what model.Legacy wrote: a difference is a finding about
// the writers. Where the script explains the data only up to gaps, the
// implementation's loads of the stored directory and of the replayed data
// must show the same head and chain under every config of the rollout path:
// the gaps are then in nothing a reader places a row by.

// implWrites builds the script through the implementation's writers and
// returns their writes, the replayed store at its persisted head, and the
// first node or head in which they differ from model.Legacy's ("" if none;
// the keys flag A adds are the implementation's alone).
func (b *builder) implWrites() (*writes, *store.Store, string) {
	run, err := driver.Build(b.script, "", flags.Off)
	if err != nil {
		return nil, nil, fmt.Sprintf("impl/writer refuses the script model.Legacy accepts: %v", err)
	}
	s := run.W.S
	w := &writes{doc: map[string]*model.Object{}, name: map[string]string{}}
	for _, n := range s.Nodes() {
		v, err := model.ParseJSON(n.Encode())
		o, _ := v.(*model.Object)
		if err != nil || o == nil {
			return nil, nil, fmt.Sprintf("row %s: impl/writer writes no JSON object", n.ID)
		}
		w.ids = append(w.ids, n.ID)
		w.doc[n.ID], w.name[n.ID] = o, fileName(int(n.Seq), n.Role, n.ID)
	}
	if text, err := s.Meta.MarshalJSON(); err == nil {
		if v, err := model.ParseJSON(text); err == nil {
			w.meta, _ = v.(*model.Object)
		}
	}
	disagree := ""
	if len(w.ids) != b.leg.NodeCount() {
		disagree = fmt.Sprintf("impl/writer writes %d nodes, model.Legacy %d", len(w.ids), b.leg.NodeCount())
	}
	for _, id := range w.ids {
		m := b.leg.Node(id)
		if disagree == "" && (m == nil || jsonText(withoutFlagKeys(w.doc[id])) != jsonText(nodeDoc(m))) {
			disagree = fmt.Sprintf("row %s: impl/writer writes it otherwise than model.Legacy", id)
		}
	}
	if h := s.PersistedHead(); disagree == "" && h != b.persisted() {
		disagree = fmt.Sprintf("persisted head: impl/writer %q, model.Legacy %q", h, b.persisted())
	}
	return w, s.AtPersistedHead(), disagree
}

// withoutFlagKeys is a node's file without the keys writers on flag A add
// (docs/rollout.md §2: predecessor, spawn_root), which model.Legacy never
// writes.
func withoutFlagKeys(doc *model.Object) *model.Object {
	m, _ := doc.Val("metadata").(*model.Object)
	if m == nil || !m.Has("predecessor") && !m.Has("spawn_root") {
		return doc
	}
	c := doc.Copy()
	mc := &model.Object{}
	for _, f := range m.Fields {
		if f.Key != "predecessor" && f.Key != "spawn_root" {
			mc.Fields = append(mc.Fields, f)
		}
	}
	c.Set("metadata", mc)
	return c
}

// confirmLoads reports the first config under which the stored directory
// and the replayed store load to another head or chain ("" if none).
func confirmLoads(dir string, replayed *store.Store) (string, error) {
	st, err := store.Open(dir)
	if err != nil {
		return "", err
	}
	for _, fl := range flags.Rollout {
		a, b := harness.Projected(webui.Load(st, fl)), harness.Projected(webui.Load(replayed, fl))
		if !harness.SameView(a, b) {
			return fmt.Sprintf("under %s the stored data loads to head %q, %v; the replayed data to head %q, %v",
				fl, a.HeadID, harness.RowIDs(a.Chain), b.HeadID, harness.RowIDs(b.Chain)), nil
		}
	}
	return "", nil
}
