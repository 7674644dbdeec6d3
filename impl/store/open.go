package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"sessiondag/impl/node"
)

// How a cold load reads a session that is being written.
const (
	// readAttempts bounds the reads of a session that keeps changing.
	readAttempts = 10
	// headAttempts bounds the reads of a session whose head names a node
	// no read found: a writer renames the node's file in before it writes
	// the head, so a second read normally finds it.
	headAttempts = 3
	// settleAge: a directory last changed longer ago than this cannot
	// change again without its modification time moving (file times have
	// the granularity of the kernel's clock tick, 1–10 ms); a younger one
	// is checked file by file.
	settleAge = 100 * time.Millisecond
	// inFlightAge: a temporary file younger than this is a write in
	// progress (the original's writer renames it into place at once); an
	// older one was left by a writer that stopped.
	inFlightAge = 30 * time.Second
)

// Open loads a session directory cold (legacy §2.1 "reading back"): every
// history/*.json file, ordered by its parsed seq (ties by file name), then
// meta.json. It never writes and opens nothing but regular files. The
// session is named by its folder, as the original names it, whatever id
// meta.json holds (a copied or restored folder keeps its source's). A folder
// without meta.json is a session whose first turn has not ended (the
// original writes meta.json at a turn's end): no stored head, nothing wrong.
// Files that cannot be used are listed in Problems with the reason; a
// directory holding none of the original's files (meta.json, history/,
// context/commits/) is not a session and is an error.
//
// The web UI may be writing the session meanwhile: it renames each new node
// file into history/, then rewrites meta.json. Open shows a state the writer
// could have left — the files history/ held while meta.json was read — or
// says it could not: it looks at history/ before listing it and after
// reading meta.json, and when the directory changed in between it reads
// again (only the files that changed), up to readAttempts times, with a
// pause that doubles each time. A head that names no node read makes it read
// again too, up to headAttempts times. What it could not settle is in
// Problems, and Unsettled reports it. A temporary file of a write in
// progress is not a crash's leftover: Notes says which it was.
func Open(dir string) (*Store, error) {
	o := &opener{dir: dir}
	pause := time.Millisecond
	for attempt := 1; ; attempt++ {
		sn, err := o.read()
		if err != nil {
			return nil, err
		}
		sn.attempts = attempt
		known := sn.head == "" || sn.has(sn.head)
		if sn.stable && (known || attempt >= headAttempts) || attempt == readAttempts {
			return o.build(sn), nil
		}
		time.Sleep(pause)
		pause = min(2*pause, 100*time.Millisecond)
	}
}

// opener reads one session directory, keeping what it read between
// attempts.
type opener struct {
	dir  string
	last []entry // the entries of the attempt before, in name order
}

// entry is one name in history/ and what reading it gave.
type entry struct {
	name string
	tmp  bool // a *.tmp file: judged, never read
	json bool // a *.json file: a node
	link bool
	n    *node.Node
	err  error
	id   fileID // the file read (a link's target), when it was opened
}

// snapshot is one read of the directory.
type snapshot struct {
	entries  []entry
	noHist   bool
	histErr  error      // history/ refused as a whole
	meta     node.Value // meta.json parsed
	metaErr  error      // meta.json unreadable
	metaBad  error      // meta.json read but not a JSON object
	metaTmp  bool
	head     string
	headErr  error
	stable   bool
	attempts int
}

func (o *opener) read() (*snapshot, error) {
	sn := &snapshot{}
	hist := filepath.Join(o.dir, "history")
	before, herr := statID(hist, true)
	var names []os.DirEntry
	switch {
	case errors.Is(herr, fs.ErrNotExist):
		sn.noHist = true
	case herr != nil:
		return nil, fmt.Errorf("open session %s: %w", o.dir, herr)
	case !before.isDir():
		sn.histErr = fmt.Errorf("%w: no node read", notDir(before))
	default:
		// history/ itself may be a link: never read a directory outside
		// the session through it.
		if err := checkLink(o.dir, hist); err != nil {
			sn.histErr = fmt.Errorf("%w: no node read", err)
			break
		}
		var err error
		if names, err = os.ReadDir(hist); err != nil {
			return nil, fmt.Errorf("open session %s: %w", o.dir, err)
		}
	}
	sn.entries = o.list(names)
	o.readEntries(sn.entries)
	if afterListing != nil {
		afterListing()
	}

	var text string
	text, sn.metaErr = o.readMeta()
	if sn.noHist && errors.Is(sn.metaErr, fs.ErrNotExist) && !HasCommits(o.dir) {
		return nil, fmt.Errorf("open session %s: no meta.json, history/ or context/commits/: not a session directory", o.dir)
	}
	if sn.metaErr == nil {
		sn.meta, sn.metaBad = node.ParseStringLimit(text, memoryLimit(len(text)))
		sn.metaBad = costly(sn.metaBad)
		if sn.metaBad == nil && sn.meta.K != node.Object {
			sn.metaBad = errors.New("not a JSON object")
		}
		if sn.metaBad == nil {
			sn.head, sn.headErr = headOf(sn.meta.O)
		}
	}
	if _, err := statID(filepath.Join(o.dir, "meta.json.tmp"), false); err == nil {
		sn.metaTmp = true
	}

	after, aerr := statID(hist, true)
	switch {
	case sn.noHist || sn.histErr != nil:
		sn.stable = errors.Is(aerr, fs.ErrNotExist) == sn.noHist && after == before
	case aerr != nil || after != before:
		sn.stable = false
	case time.Since(time.Unix(0, before.mtime)) > settleAge:
		sn.stable = true
	default:
		sn.stable = o.unchanged(hist, sn.entries)
	}
	return sn, nil
}

// has reports whether a node read has the id.
func (sn *snapshot) has(id string) bool {
	for _, e := range sn.entries {
		if e.n != nil && e.n.ID == id {
			return true
		}
	}
	return false
}

// list turns the names of history/ into entries, reusing what an earlier
// attempt read of a file that has not changed since.
func (o *opener) list(names []os.DirEntry) []entry {
	out := make([]entry, len(names))
	for i, d := range names {
		e := entry{name: d.Name()}
		switch {
		case strings.HasSuffix(e.name, ".json"):
			e.json = true
		case strings.HasSuffix(e.name, ".tmp"):
			e.tmp = true
		}
		t := d.Type()
		e.link = t&fs.ModeSymlink != 0
		if e.json && !t.IsRegular() && !e.link {
			// A FIFO, a device, a directory named *.json: refused by its
			// type, never opened.
			e.err = fmt.Errorf("not a regular file (%s): not opened", typeName(t))
		}
		// What the attempt before read is kept while the file is the same:
		// a node, or a file refused for what it would cost (the same bytes
		// cost the same).
		if c, ok := o.earlier(e.name); ok && e.json && e.err == nil && !e.link && (c.n != nil || tooCostly(c.err)) && !c.link {
			if id, err := statID(filepath.Join(o.dir, "history", e.name), false); err == nil && id == c.id {
				e = c
			}
		}
		out[i] = e
	}
	o.last = out
	return out
}

// earlier finds what the attempt before read under a name. Listings are in
// name order, and so are the lookups: each is a step along the last one.
func (o *opener) earlier(name string) (entry, bool) {
	for len(o.last) > 0 && o.last[0].name < name {
		o.last = o.last[1:]
	}
	if len(o.last) > 0 && o.last[0].name == name {
		return o.last[0], true
	}
	return entry{}, false
}

// readEntries reads and decodes the *.json entries not taken from the
// cache, split between the cores for large sessions: files are
// independent, and a core waiting on a read leaves the other to decode.
func (o *opener) readEntries(entries []entry) {
	var todo []int
	for i, e := range entries {
		if e.json && e.err == nil && e.n == nil {
			todo = append(todo, i)
		}
	}
	work := func(lo, hi int) {
		var buf []byte
		for _, i := range todo[lo:hi] {
			e := &entries[i]
			data, id, err := readFile(o.dir, "history/"+e.name, &buf)
			e.id = id
			if err == nil {
				e.n, err = node.DecodeStringLimit(data, memoryLimit(len(data)))
				err = costly(err)
			}
			e.err = err
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo)/parallelRead)
	if workers < 2 {
		work(0, len(todo))
	} else {
		var wg sync.WaitGroup
		step := (len(todo) + workers - 1) / workers
		for lo := 0; lo < len(todo); lo += step {
			hi := min(lo+step, len(todo))
			wg.Go(func() { work(lo, hi) })
		}
		wg.Wait()
	}
}

// afterListing, when set (by tests), runs between the reading of history/
// and the reading of meta.json: where a live writer's rename makes the
// head name a node the listing missed.
var afterListing func()

// parallelRead is the number of files per core below which reading is not
// split.
var parallelRead = 256

// unchanged is the second look at a directory that changed too recently for
// its modification time to tell: the same names, each the same file in the
// same version as it was read.
func (o *opener) unchanged(hist string, entries []entry) bool {
	names, err := os.ReadDir(hist)
	if err != nil || len(names) != len(entries) {
		return false
	}
	for i, d := range names {
		e := entries[i]
		if d.Name() != e.name {
			return false
		}
		if !e.json || e.id == (fileID{}) {
			continue
		}
		id, err := statID(filepath.Join(hist, e.name), e.link)
		if err != nil || id != e.id {
			return false
		}
	}
	return true
}

// readMeta reads meta.json, refusing without opening it anything but a
// regular file or a link to one.
func (o *opener) readMeta() (string, error) {
	p := filepath.Join(o.dir, "meta.json")
	id, err := statID(p, false)
	if err != nil {
		return "", err
	}
	if !id.regular() && !id.isLink() {
		return "", notRegular(id)
	}
	var buf []byte
	data, _, err := readFile(o.dir, "meta.json", &buf)
	return data, err
}

// headOf is the stored head: head_id, else last_node_id.
func headOf(meta *node.Obj) (string, error) {
	head := meta.Get("head_id")
	if !head.Truthy() {
		head = meta.Get("last_node_id")
	}
	switch head.K {
	case node.String, node.Null, node.Missing:
		return head.Str(), nil
	}
	return "", &node.FieldError{Field: "head_id", Msg: "not a string"}
}
