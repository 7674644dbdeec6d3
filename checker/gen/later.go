package gen

// Rows that name an id a later op writes. The original stores rows out of
// order: a tool row written by a subprocess before the reply that called it
// is committed, an adapter row naming a parent the importer writes next.
// ops/README.md lets exactly these references dangle (an orphan's caller,
// a dispatcher or adapter row's parent), so the generator names ids it has
// minted but not yet written, and the ops that write such ids take them
// from these lists first. Whatever reads the session then meets a row whose
// target appears after it (and caches built without it must notice).

// laterID returns an id for a row to name that a later op is likely to
// write: the reply of a web user not yet typed, that user, or a function
// run or model call not yet made. It reuses the oldest waiting id of the
// kind or mints a new one.
func (s *shadow) laterID(src Source) string {
	switch src.IntN(3, "later target") {
	case 1:
		return s.waiting(src, &s.laterUsers, s.id8)
	case 2:
		return s.waiting(src, &s.laterRuns, s.id12)
	}
	return s.waiting(src, &s.laterUsers, s.id8) + "_reply"
}

func (s *shadow) waiting(src Source, list *[]string, mint func() string) string {
	if len(*list) > 0 && src.IntN(2, "later reuse") == 0 {
		return (*list)[0]
	}
	id := mint()
	*list = append(*list, id)
	return id
}

// userID is the id of a new web user or edit row: a minted id some row
// already names, else a fresh one.
func (s *shadow) userID() string { return take(&s.laterUsers, s.id8) }

// runID is the id of a new function run or model call, likewise.
func (s *shadow) runID() string { return take(&s.laterRuns, s.id12) }

func take(list *[]string, mint func() string) string {
	if len(*list) == 0 {
		return mint()
	}
	id := (*list)[0]
	*list = (*list)[1:]
	return id
}

// await records that a row written now names id, which is not written yet:
// shape is what its write completes.
func (s *shadow) await(id, shape string) {
	if id == "" || s.written[id] || id == "ROOT" {
		return
	}
	s.awaited[id] = append(s.awaited[id], shape)
}

// arrived counts the shapes completed by writing id.
func (s *shadow) arrived(id string) {
	for _, shape := range s.awaited[id] {
		s.tally.Shape(shape)
	}
	delete(s.awaited, id)
}
