package harness

import (
	"fmt"
	"slices"

	"sessiondag/impl/adapter"
	"sessiondag/impl/flags"
	"sessiondag/impl/lane"
	"sessiondag/impl/node"
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
					fmt.Sprintf("chain before cards: %v\nchain after: %v", adapter.IDs(l.BeforeCards), adapter.IDs(l.Chain)))
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
	if err := checkAggregationOf(l.Messages, l.All, reread); err != nil {
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
// loads), at every rollout step, and every view is the view of the same
// data read with no memos (store.Unmemoized): the message memos are shared
// by both loads, so only that comparison sees one left stale. The session
// is loaded after every op, so each load runs over what the earlier ones
// kept.
func checkColumns(s *Session) *Finding {
	st := s.Run().W.S
	bare := st.Unmemoized()
	for _, fl := range flags.Rollout {
		l := Load(st, fl)
		if d := LoadDiff(webui.LoadByMaps(st, fl), l); d != "" {
			return s.finding("columns", fmt.Sprintf("flags %s: the load by position differs from the load by maps", fl), d)
		}
		// What the loads so far left in the memos changes no view: the
		// same data read with none gives every view alike.
		if sec, d := ViewDiff(Views(bare, fl), webui.ViewsOf(st, fl, l)); sec != "" {
			return s.finding("columns", fmt.Sprintf("flags %s: after earlier loads, view %s differs from a load with no memos", fl, sec), d)
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

// checkFields: a flag changes what it says and nothing else. Under every
// config of the rollout path each message is its flags-off message with at
// most parent_id's value changed (flag A's predecessor), every key in the
// same place; rows of the aggregated list keep the key order their
// flags-off rows have. (The chain is not compared: without B, R's fallback
// can show raw rows where a walk shows aggregated ones.) The original is Python, whose dicts keep
// insertion order, so the place of a key is part of what it sends.
func checkFields(s *Session) *Finding {
	off := s.Views(flags.Off)
	for _, fl := range flags.Rollout[1:] {
		v := s.Views(fl)
		if len(v.Messages) != len(off.Messages) {
			return s.finding("fields", fmt.Sprintf("flags %s: %d messages, %d with the flags off", fl, len(v.Messages), len(off.Messages)), "")
		}
		for i, m := range v.Messages {
			if d := fieldsDiff(off.Messages[i], m, true); d != "" {
				return s.finding("fields", fmt.Sprintf("flags %s: message %s is not its flags-off message", fl, m.ID), d)
			}
		}
		byID := make(map[string]*adapter.Message, len(off.All))
		for _, m := range off.All {
			byID[m.ID] = m
		}
		for _, m := range v.All {
			if o := byID[m.ID]; o != nil {
				if d := fieldsDiff(o, m, false); d != "" {
					return s.finding("fields", fmt.Sprintf("flags %s: aggregated row %s has its keys in another order", fl, m.ID), d)
				}
			}
		}
	}
	return nil
}

// fieldsDiff says how b differs from a beyond parent_id's value: a key
// added, dropped or moved, or (with values) another key's value changed.
func fieldsDiff(a, b *adapter.Message, values bool) string {
	ka, kb := a.F.Keys(), b.F.Keys()
	if !slices.Equal(ka, kb) {
		return fmt.Sprintf("keys with the flags off: %v\nkeys: %v", ka, kb)
	}
	if !values {
		return ""
	}
	for i, k := range ka {
		if k != "parent_id" && !node.Equal(a.F.M[i].Val, b.F.M[i].Val) {
			return fmt.Sprintf("%s with the flags off: %s\n%s: %s", k, node.Dumps(a.F.M[i].Val), k, node.Dumps(b.F.M[i].Val))
		}
	}
	return ""
}
