package reconstruct

import (
	"fmt"

	"sessiondag/model"
	"sessiondag/ops"
)

// builder reconstructs one session: the rows, the script so far and the
// writer it was applied to, and what the script has open.
type builder struct {
	d      *Dir
	byID   map[string]*Row // the stored rows by id (the final state of every row)
	byTime map[string]int  // the first row stored at each created_at (its JSON): its index + 1
	// called: the ids some row names as its caller (called_by, or a legacy
	// tool row's metadata.called_by), but an attach pointer, whose caller
	// is the row its spawn was issued from, which called nothing.
	called map[string]bool
	// attachOf: the first attach pointer naming each row as its attach's
	// head_id (a spawn turn's, whose done writes it, is named at the spawn).
	attachOf map[string]int // … its index + 1
	// followupOf: the first follow-up turn (source task_followup) each row
	// is the parent of: an async spawn's, under its command row.
	followupOf map[string]string
	t          *model.TargetRun
	leg        *model.LegacyRun // t's writer state: read, never applied to
	script     []ops.Op
	i          int // the next row to explain

	// What the writer performing the ops has in progress, as the ops
	// applied left it (mirror.go).
	pending    string
	pendingSrc string  // its source: web, cli or an internal turn's
	frames     []frame // the open functions, outermost first
	reply      *openReply
	spawn      string     // the sub-agent user of the spawn or task turn pending ("" = none)
	followup   string     // the follow-up an async spawn turn's done writes ("" = none)
	outer      *outerTurn // a task turn's: the turn whose reply waits on it

	clock  float64 // the clock's time and the node count when it was set
	clockN int

	writers int // writers named so far beyond the first
	// flagsOn: the writer performing the ops writes with flag A (its rows
	// record their predecessor); flagged: some op set a flag.
	flagsOn, flagged bool
	intent           ops.Intent
	// noHead: meta.json holds no head (null, "" or no key), so nothing
	// persisted one after the session was made (unsavedStep).
	noHead bool
	// toDrop: the pointers written for seqs no row holds, dropped once the
	// row after them is written; dropped: those seqs (dropped.go).
	toDrop  []string
	dropped []int
	rewinds []*Row  // rewound rows not rewound yet, by rewound_at
	points  []point // where another script explains the same rows
	// For the other readings (ambiguity.go): per row, whether its op needed
	// nothing in progress and whether the ops for it moved the browser's
	// head; per op of the script, the row it was applied for; the op that
	// wrote each row. A rebuild gets hints and records no points (quiet).
	rowIdle, rowCH []bool
	rowAt          []int
	wroteAt        map[string]int
	hints          map[int]hint
	quiet          bool
	rowMarks       *rowMarks // built once, when a reading needs them

	runs []string // the model-called runs the function subprocess numbered (subprocess.go)

	stepRows int       // the rows the op being explained writes
	chAt     browser   // the browser's head once what ended before the op did
	rebuilt  int       // other readings rebuilt (ambiguity.go)
	first    *FirstRow // set when a row is unexplained: the build stops
}

// browser is the browser's head as the writer keeps it: the head of the
// server's conversation once made (an op that makes or moves it moves the
// browser); before, none, whatever the store's head, which the first web op
// reads (R11), so a checkout could still have made it.
type browser struct {
	made, set bool
	ch        string
}

// browserNow is the writer's browser now.
func (b *builder) browserNow() browser {
	if !b.leg.ConversationMade() {
		return browser{}
	}
	ch, set := b.leg.ClientHead()
	return browser{made: true, set: set, ch: ch}
}

// outerTurn is the turn a task turn's reply is in, as the builder left it.
type outerTurn struct {
	pending, pendingSrc string
	reply               *openReply
}

// attachFor is the attach pointer naming the reply id as its head, and its
// index (nil, -1: none).
func (b *builder) attachFor(id string) (*Row, int) {
	k := b.attachOf[id] - 1
	return b.row(k), k
}

// frame is an open function: its row and its last exec.
type frame struct {
	id       string
	lastExec string
}

// openReply is the open reply and the blocks of its final row not yet
// given as ops.
type openReply struct {
	id     string
	blocks []*model.Object
}

// Path reconstructs the session directory at path.
func Path(path string) (*Result, error) {
	d, err := Read(path)
	if err != nil {
		return nil, err
	}
	return Session(d), nil
}

// Session reconstructs a session read by Read.
func Session(d *Dir) *Result {
	b := newBuilder(d)
	b.run()
	return b.result()
}

func newBuilder(d *Dir) *builder {
	b := &builder{d: d, byID: make(map[string]*Row, len(d.Rows)), byTime: make(map[string]int, len(d.Rows)), called: make(map[string]bool), attachOf: make(map[string]int), followupOf: make(map[string]string), t: model.NewTarget(d.ID), clock: 1782000000.0,
		wroteAt: make(map[string]int, len(d.Rows)), rowIdle: make([]bool, len(d.Rows)), rowCH: make([]bool, len(d.Rows))}
	b.leg = b.t.Legacy()
	if d.Meta != nil {
		h := d.Meta.Val("head_id")
		b.noHead = h == nil || h == ""
	}
	for k, r := range d.Rows {
		if r.Err == nil && b.byID[r.ID] == nil {
			b.byID[r.ID] = r
		}
		if r.Err == nil {
			if !has(r.Meta, "attach") {
				b.called[r.CalledBy], b.called[str(r.Meta, "called_by")] = true, true
			}
			if at, ok := r.Meta.Val("attach").(*model.Object); ok && str(at, "head_id") != "" && b.attachOf[str(at, "head_id")] == 0 {
				b.attachOf[str(at, "head_id")] = k + 1
			}
			if p := str(r.Meta, "parent_id"); r.Role == "user" && str(r.Meta, "source") == "task_followup" && b.followupOf[p] == "" {
				b.followupOf[p] = r.ID
			}
		}
		if t := ""; r.Err == nil {
			if t = jsonText(r.Obj.Val("created_at")); b.byTime[t] == 0 {
				b.byTime[t] = k + 1
			}
		}
		if r.Err == nil && model.Truthy(r.Meta.Val("rewound")) {
			b.rewinds = append(b.rewinds, r)
		}
	}
	b.sortRewinds()
	return b
}

// run explains the rows one op at a time, then ends what the rows leave
// ended and the stored head.
func (b *builder) run() {
	if b.d.MetaErr != nil {
		b.unexplained(nil, "", "meta.json", b.d.MetaErr.Error())
		return
	}
	b.apply(ops.Session{ID: b.sessionID()})
	for b.first == nil && b.i < len(b.d.Rows) {
		r := b.d.Rows[b.i]
		if err := b.rowError(r); err != nil {
			b.unexplained(r, "", "", err.Error())
			return
		}
		b.rewindBefore(r)
		s := b.unsavedStep(r, b.infer(r))
		if b.first != nil {
			return
		}
		b.stepRows = s.rows
		b.prepare(&s)
		if b.first != nil {
			return
		}
		before := b.leg.NodeCount()
		if !b.apply(s.op) {
			return
		}
		b.confirm(s, before)
		b.dropAfter()
		b.notePoint(s)
		// A conversation the op made moves no browser a checkout before it
		// would have put elsewhere: that checkout makes it (window).
		b.rowIdle[b.i], b.rowCH[b.i] = s.need == needIdle, b.chAt.made && b.browserNow() != b.chAt
		b.i += s.rows
	}
	if b.first == nil {
		b.finish()
	}
}

// sessionID is the id the writers wrote the session under: meta.json's,
// else the one an attach pointer records (the writers write the session's
// id there: a copy of a live session has a folder of another name), else
// the directory's name (which is what a reader names it by).
func (b *builder) sessionID() string {
	if id := str(b.d.Meta, "id"); id != "" {
		return id
	}
	for _, r := range b.d.Rows {
		if at, ok := r.Meta.Val("attach").(*model.Object); r.Err == nil && ok {
			if id := str(at, "session_id"); id != "" {
				return id
			}
		}
	}
	return b.d.ID
}

// rowError says why a row cannot be explained before any op is tried: the
// file is no node, its id is taken, or it is out of seq order.
func (b *builder) rowError(r *Row) error {
	switch {
	case r.Err != nil:
		return r.Err
	case b.byID[r.ID] != r:
		return fmt.Errorf("id %q is stored twice: the writers write each id once", r.ID)
	case b.i > 0 && b.d.Rows[b.i-1].Err == nil && r.Seq <= b.d.Rows[b.i-1].Seq && !(r.Seq == b.d.Rows[b.i-1].Seq && isRunRow(r)):
		if r.Seq == b.d.Rows[b.i-1].Seq && !isRunRow(r) {
			return fmt.Errorf("seq %d is stored twice, and not by a function the model called (whose subprocess may count seqs of its own): no op writes two rows with one seq", r.Seq)
		}
		return fmt.Errorf("seq %d does not follow seq %d of the file before it: the writers append in seq order", r.Seq, b.d.Rows[b.i-1].Seq)
	}
	return nil
}

// apply applies op to the writer and the intent, appending it to the
// script; a refusal makes the current row unexplained.
func (b *builder) apply(op ops.Op) bool {
	kept := b.intent.Keeps(op, b.leg)
	ch, _ := b.leg.ClientHead()
	stale := b.intent.Stale(b.leg)
	nodes := b.leg.NodeCount()
	if err := b.t.Apply(op); err != nil {
		r := b.current()
		b.unexplained(r, ops.Format(op), "", fmt.Sprintf("the writer refuses the op: %v", err))
		return false
	}
	b.script = append(b.script, op)
	b.rowAt = append(b.rowAt, b.i)
	b.track(op, b.leg.NodeCount() > nodes)
	for _, id := range b.leg.IDsFrom(nodes) {
		b.wroteAt[id] = len(b.script) - 1
	}
	if stale && !kept {
		b.note(point{kind: pointStale, id: ch})
	} else if !kept {
		b.note(point{kind: pointOpen})
	}
	b.intent.Track(op, kept, b.leg)
	return true
}

// current is the row being explained (nil past the last).
func (b *builder) current() *Row {
	if b.i < len(b.d.Rows) {
		return b.d.Rows[b.i]
	}
	return nil
}

// unexplained records the first row no script explains and stops the build.
func (b *builder) unexplained(r *Row, op, field, why string) {
	if b.first != nil {
		return
	}
	f := &FirstRow{Op: op, Field: field, Why: why}
	if r != nil {
		f.File, f.ID = r.File, r.ID
	} else {
		f.File = "meta.json"
	}
	b.first = f
}

// note records a point at the op applied last.
func (b *builder) note(p point) {
	if !b.quiet {
		p.row, p.at, p.last = b.i, len(b.script)-1, b.i+max(b.stepRows, 1)-1
		b.points = append(b.points, p)
	}
}

// notePoint records a row that records no parent: the server's head it
// continues may have been moved by a checkout no row shows.
func (b *builder) notePoint(s step) {
	if recordsNoParent(s.op) && !b.flagsOn {
		b.note(point{kind: pointNoParent, id: opRow(s.op)})
	}
}
