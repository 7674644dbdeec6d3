package harness

import (
	"sessiondag/impl/flags"
)

// checkLegacy is P1: with every flag off the implementation shows exactly
// what model.Legacy shows, in every view. Rows written with a flag on carry
// fields R never wrote, so it applies while every row was written off.
func checkLegacy(s *Session) *Finding {
	if !s.LegacyWrites() {
		return nil
	}
	if sec, d := ViewDiff(s.Shown(s.LegacyView()), s.Views(flags.Off)); sec != "" {
		return s.finding("legacy", "impl (flags off) differs from model.Legacy in view "+sec, d)
	}
	return nil
}

// checkTarget is P2: with every flag on, data written with the flags on
// loads as exactly the intended conversation.
func checkTarget(s *Session) *Finding {
	if !s.Strict() {
		return nil
	}
	if d := TargetDiff(s.Intended(), s.Load(flags.All)); d != "" {
		return s.finding("target", "flags all: the loaded chain is not the intended conversation", d)
	}
	return nil
}
