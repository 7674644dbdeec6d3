package exhaust

import "encoding/binary"

// The fingerprints a lane keys its memo by, each over the scout after the
// script (the walk's own writer state is the scout's).
//
// dataKey: everything the checks of a plan read. The stored data and the
// writers' flags (the implementation's loads, which run on memos no load
// filled: lane.check), model.Legacy's stored data (its views are a
// function of it: model.LegacyRun.AppendData), model.Target's intended view
// (it depends on what the ops meant, not only on what they stored), Strict
// and LegacyWrites, and which checks run on which kind of data.
//
// historyKey: what a plan of History checks reads. They check the
// implementation's loads against each other, after loads of the store
// before the last op: that store and the one after it (storeKey), the
// writers' flags, and the plan.
//
// stateKey: everything that decides what lies below a script. The walk's
// frontier (the ids later ops may name, the flags in force and how they
// changed from each lane's start, the writers named and the one writing,
// the names minted, the intent rule: frontier.appendState), the
// implementation's writers and store (driver.Run.AppendState), both
// models' whole state with every writer's (model.LegacyRun.AppendState,
// model.TargetRun.AppendState), Strict, LegacyWrites and the flags in force
// (harness.Session.InForce), and whether the script failed on the lane
// (then nothing below is checked). Every check below starts from memos no
// load filled or from loads it makes itself, so what loads kept is not part
// of it.
//
// storeKey: the implementation's store (store.Store.AppendState: with its
// update log), which decides what loads leave in its memos.
//
// Every key reads the in-process implementation (harness.Session.Run):
// a lane checking another process has no dedup (lane.dedup).

func (l *lane) storeKey() Fingerprint {
	if !l.dedup {
		return Fingerprint{} // no memo to key; another process has no store here
	}
	l.buf = l.scout.Run().W.S.AppendState(append(l.buf[:0], 'S'))
	return fingerprintOf(l.buf)
}

func (l *lane) dataKey(p plan) Fingerprint {
	s := l.scout
	b := p.appendState(append(l.buf[:0], 'D', byte(l.writer)))
	b = s.Run().W.S.AppendState(b)
	b = binary.AppendUvarint(b, uint64(s.Run().W.Flags))
	b = s.Legacy.AppendData(b)
	b = s.Intended().AppendState(b) // the view the checks compare with, computed once per op
	b = appendBool(appendBool(b, s.Strict()), s.LegacyWrites())
	l.buf = b
	return fingerprintOf(b)
}

func (l *lane) historyKey(p plan, before Fingerprint) Fingerprint {
	b := p.appendState(append(l.buf[:0], 'H', byte(l.writer)))
	b = append(b, before[:]...)
	b = l.scout.Run().W.S.AppendState(b)
	b = binary.AppendUvarint(b, uint64(l.scout.Run().W.Flags))
	l.buf = b
	return fingerprintOf(b)
}

// appendState encodes which checks run on which kind of data.
func (p plan) appendState(b []byte) []byte {
	for i, c := range p.checks {
		b = appendString(appendString(b, c.Name), p.kinds[i].Slug)
	}
	return b
}

func (l *lane) stateKey(n Node, failed bool) Fingerprint {
	return l.stateKeyOf(n.front, failed, l.scout.Run().AppendState)
}

// stateKeyOf is stateKey with the frontier and the encoding of the
// implementation's state given (a test leaves out a piece of either).
func (l *lane) stateKeyOf(front *frontier, failed bool, impl func([]byte) []byte) Fingerprint {
	s := l.scout
	b := append(l.buf[:0], 'X', byte(l.writer))
	b = appendBool(b, failed)
	b = front.appendState(b)
	b = impl(b)
	b = s.Legacy.AppendState(b)
	b = s.Target.AppendState(b)
	b = appendBool(appendBool(b, s.Strict()), s.LegacyWrites())
	b = binary.AppendUvarint(b, uint64(s.InForce()))
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
