package harness

import (
	"fmt"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/webui"
)

// The checks below are invariants of the implementation itself: they need
// no model.

// checkCards is P5: rebuilding runtime cards never removes a user row from
// the chain, under every config of the rollout path (legacy §5.2).
func checkCards(s *Session) *Finding {
	for _, fl := range flags.Rollout {
		l := s.Load(fl)
		after := make(map[string]bool, len(l.Chain))
		for _, m := range l.Chain {
			after[m.ID] = true
		}
		for _, m := range l.BeforeCards {
			if m.Role == "user" && !after[m.ID] {
				return s.finding("cards", fmt.Sprintf("flags %s: the card pass dropped user row %s", fl, m.ID),
					fmt.Sprintf("chain before cards: %v\nchain after: %v", IDs(l.BeforeCards), IDs(l.Chain)))
			}
		}
	}
	return nil
}

// checkAggregation is P6: aggregation, as the load runs it, folds each tool
// row exactly once into the assistant it names or keeps it in place;
// nothing is lost, duplicated or reordered; blocks are copies.
func checkAggregation(s *Session) *Finding {
	st := s.Run().W.S
	l := webui.Load(st, flags.Off)
	reread := func() []*adapter.Message { return webui.Aggregate(webui.Messages(st)) }
	if err := CheckAggregation(l.Messages, l.All, reread); err != nil {
		return s.finding("aggregation", "aggregation broke conservation", err.Error())
	}
	return nil
}

// checkRetireD: under flag D no reader reads parent_id (the count of reads
// does not move during a load), and turning D on changes no view: it only
// moves the readers onto called_by and the stored predecessor.
func checkRetireD(s *Session) *Finding {
	st := s.Store()
	var d webui.View
	if n := CountParentReads(st, func() { d = webui.Views(st, flags.All) }); n != 0 {
		return s.finding("retire-d", fmt.Sprintf("flags all: %d reads of parent_id", n), "")
	}
	if sec, diff := ViewDiff(s.Views(flags.A|flags.B|flags.C), d); sec != "" {
		return s.finding("retire-d", "flag D changed view "+sec, diff)
	}
	return nil
}

// checkColumns: the load's position-based machinery — per-session columns
// extended as nodes are appended, folded assistants kept per node, flag A's
// predecessors cached and extended — shows exactly what the load through
// maps keyed by id shows (webui.LoadByMaps, which keeps nothing between
// loads), at every rollout step. The session is loaded after every op, so
// each load runs over what the earlier ones kept.
func checkColumns(s *Session) *Finding {
	st := s.Run().W.S
	for _, fl := range flags.Rollout {
		if d := LoadDiff(webui.LoadByMaps(st, fl), webui.Load(st, fl)); d != "" {
			return s.finding("columns", fmt.Sprintf("flags %s: the load by position differs from the load by maps", fl), d)
		}
	}
	fresh, cached := lane.NewPreds(st), lane.PredsOf(st)
	for _, n := range st.Nodes() {
		wp, wok := fresh.Of(n.ID)
		gp, gok := cached.Of(n.ID)
		if wp != gp || wok != gok {
			return s.finding("columns", "the cached predecessors differ from a fresh derivation",
				fmt.Sprintf("node %s: fresh (%q, %v), cached (%q, %v)", n.ID, wp, wok, gp, gok))
		}
	}
	return nil
}
