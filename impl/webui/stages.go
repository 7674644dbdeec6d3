package webui

import (
	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/history"
	"sessiondag/impl/store"
)

// Stages runs the load's steps one at a time, the way Load runs them, so
// that a benchmark can time each apart. Aggregate must run first: the
// later steps look rows up in what it built.
type Stages struct {
	r    *reader
	rows rowIndex
}

// NewStages prepares the steps of a load of s under fl.
func NewStages(s *store.Store, fl flags.Set) *Stages { return &Stages{r: newReader(s, fl)} }

// Aggregate is steps 1–2, get_messages and aggregate_tool_messages: the
// aggregated rows.
func (st *Stages) Aggregate() []*adapter.Message {
	st.rows.release()
	_, all, rows := st.r.aggregated()
	st.rows = rows
	return all
}

// Linear is step 5 from head: linear_history over the aggregated rows, or
// under flag B the predecessor walk.
func (st *Stages) Linear(head string) []*adapter.Message {
	if st.r.walksPreds() {
		_, chain := st.r.predChain(head, st.rows)
		return chain
	}
	return history.LinearBy(st.rows.get, len(st.rows.all), head, history.ParentEdge)
}

// Cards is step 9, the runtime-card pass over a chain.
func (st *Stages) Cards(chain []*adapter.Message) []*adapter.Message {
	return st.r.rules.rebuildCards(chain, st.rows, NewTreeIndex(st.r.s))
}

// Siblings is step 10, sibling info for a chain.
func (st *Stages) Siblings(chain []*adapter.Message) []*adapter.Message {
	return st.r.siblingInfo(chain, st.rows)
}
