package exhaust

import (
	"encoding/binary"

	"sessiondag/checker/harness"
)

// The fingerprints a lane keys its memo by, each over the scout after the
// script (it is never loaded, so its store's memos are empty).
//
// dataKey: everything the checks of a script read. The stored data and the
// writers' flags (the implementation's loads), model.Legacy's stored data
// (its views are a function of it: model.LegacyRun.AppendData),
// model.Target's intended view (it depends on what the ops meant, not only
// on what they stored), Strict and LegacyWrites, and which checks run on
// which kind of data. A check's loads also read what earlier loads left in
// the store's memos: lane.check runs every check on memos filled by loads
// of the store before the script's last op, so that store is part of the
// data too (storeKey).
//
// stateKey: everything that decides what lies below a script. The walk's
// frontier (the ids later ops may name, the rollout step, the names
// minted, the intent rule: frontier.appendState), the implementation's
// writer and store (driver.Run.AppendState), both models' whole state
// (model.LegacyRun.AppendState, model.TargetRun.AppendState), Strict and
// LegacyWrites, and whether the script failed on the lane (then nothing
// below is checked). The checks below run in sessions of their own, so what
// loads kept in the scout (nothing) is not part of it.
//
// storeKey: the implementation's store (store.Store.AppendState), which
// with empty memos decides what the warm loads of lane.check leave in them.

func (l *lane) storeKey() Fingerprint {
	l.buf = l.scout.Impl.W.S.AppendState(append(l.buf[:0], 'S'))
	return fingerprintOf(l.buf)
}

func (l *lane) dataKey(checks []harness.Check, kinds []harness.Data, before Fingerprint) Fingerprint {
	s := l.scout
	b := append(l.buf[:0], 'D', byte(l.writer))
	for i, c := range checks {
		b = appendString(appendString(b, c.Name), kinds[i].Slug)
	}
	b = append(b, before[:]...)
	b = s.Impl.W.S.AppendState(b)
	b = binary.AppendUvarint(b, uint64(s.Impl.W.Flags))
	b = s.Legacy.AppendData(b)
	b = s.Target.View().AppendState(b)
	b = appendBool(appendBool(b, s.Strict()), s.LegacyWrites())
	l.buf = b
	return fingerprintOf(b)
}

func (l *lane) stateKey(n Node, failed bool) Fingerprint {
	s := l.scout
	b := append(l.buf[:0], 'X', byte(l.writer))
	b = appendBool(b, failed)
	b = n.front.appendState(b)
	b = s.Impl.AppendState(b)
	b = s.Legacy.AppendState(b)
	b = s.Target.AppendState(b)
	b = appendBool(appendBool(b, s.Strict()), s.LegacyWrites())
	l.buf = b
	return fingerprintOf(b)
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func appendBool(b []byte, x bool) []byte {
	if x {
		return append(b, 1)
	}
	return append(b, 0)
}
