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

// confirmWriters builds the script through the implementation's writers
// and compares every node and the persisted head with model.Legacy's; it
// returns the replayed store and the first difference ("" if none).
func (b *builder) confirmWriters() (*store.Store, string) {
	run, err := driver.Build(b.script, "", flags.Off)
	if err != nil {
		return nil, fmt.Sprintf("impl/writer refuses the script model.Legacy accepts: %v", err)
	}
	s := run.W.S
	if s.Len() != b.leg.NodeCount() {
		return nil, fmt.Sprintf("impl/writer writes %d nodes, model.Legacy %d", s.Len(), b.leg.NodeCount())
	}
	for _, n := range s.Nodes() {
		v, err := model.ParseJSON(n.Encode())
		m := b.leg.Node(n.ID)
		if err != nil || m == nil || jsonText(v) != jsonText(nodeDoc(m)) {
			return nil, fmt.Sprintf("row %s: impl/writer writes it otherwise than model.Legacy", n.ID)
		}
	}
	if h := s.PersistedHead(); h != b.persisted() {
		return nil, fmt.Sprintf("persisted head: impl/writer %q, model.Legacy %q", h, b.persisted())
	}
	return s.AtPersistedHead(), ""
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
