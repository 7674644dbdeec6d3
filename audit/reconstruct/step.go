package reconstruct

import "sessiondag/ops"

// need is what must hold before an op: what of the turn or function in
// progress ends first.
type need int

const (
	needAny      need = iota // valid in any state (rewind)
	needIdle                 // a turn op: every turn and function ended first
	needTurn                 // reply, error-standalone: the turn pending (rerun if it is not)
	needReply                // a row of the open reply: its functions ended first
	needFrame                // a row of an open function: the functions inside it ended first
	needSpawnEnd             // a spawn turn's attach pointer: its reply done, its functions ended first
)

// step is the op that writes the next rows and what must hold before it.
type step struct {
	op   ops.Op
	rows int  // how many stored rows the op writes
	need need // …
	// caller: for needReply the reply, for needFrame the function or exec
	// the row names as its caller, for needTurn the turn.
	caller string
	// web is the row that records the browser's head (a web turn, a
	// /spawn or /merge command row): the browser is put there first.
	web *Row
	// clock is the row whose created_at the op's first append gets (nil:
	// the op sets its rows' times otherwise, or writes none).
	clock *Row
	// call is the tool call whose block comes next in the reply's blocks.
	call string
	// head is where the store's head must be for the op (a compaction's
	// branch ends there): checked out when it is elsewhere.
	head string
	// parent is a dispatcher turn's recorded parent, decided once the
	// turns before it ended: inherited or given (dispatchParent).
	parent *parentRec
}

// parentRec is a dispatcher user's recorded parent_id.
type parentRec struct {
	present bool   // the key is written
	null    bool   // … as null
	id      string // … as this id
}
