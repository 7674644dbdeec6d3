package exhaust

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"
)

// exchange passes what the claimants of one walk expanded between them
// (Claims): after each part it walks, a process appends to its own file the
// states its lanes expanded with nothing failing below them and at least
// two ops below them, each with its tallies by distance, and before each
// part it claims it takes in what the others appended since. (The states
// one op above the leaves are most of them and each stands for a single
// op's scripts: at 5 ops, giving them too made the files 13 times larger
// and the walk no faster.) A state another claimant expanded is then one it
// adds up instead of walking: claimants that meet each other's states (ops
// that commute reach one state from two orders, in parts far apart) walk
// each once between them. The counts are those of a walk without it; only
// passes are exchanged, so the failures a claimant reports are those of its
// own walk (memos).
//
// The files are memos/<walk>/<claimant>: the walk is a hash of what decides
// the tallies below a state (max ops, kinds, checks, the mutant switched
// on, the build), so claimants of another walk sharing the directory take
// in nothing. A file is a sequence of frames, each written whole by one
// append: the length of its records, the records, their CRC-32. A claimant
// killed while appending leaves a torn frame at the end of its file: run
// again under its name it cuts its file back to its last whole frame before
// it appends. A reader takes in the whole frames and stops at the first
// that is not (not all there yet, or torn: its length or checksum wrong),
// says so once, and reads on from there when the file changes; nothing in
// a file stops a claimant (the memos only save work).
type exchange struct {
	dir, self string
	shared    sharedMemos
	maxOps    int // a state's tallies are at most this many
	below     int // the ops below a state given, at least

	mu     sync.Mutex
	out    *os.File
	read   map[string]int64 // bytes of each other claimant's file taken in
	opened int              // files opened to take in (a test's count)
	buf    []byte
	// stuck are the files a take stopped in before their end at a frame
	// that is not whole, as they were then: read again once they change.
	stuck map[string]fileMark
	note  io.Writer // where a stop is said (nil: nowhere)
}

// fileMark is a file's size and time of change, to see that it changed.
type fileMark struct {
	size int64
	mod  time.Time
}

// maxFrame bounds a frame's length, so that a damaged length is an error,
// not an allocation.
const maxFrame = 64 << 20

// openExchange opens the exchange of claimant name under the claims
// directory dir, for the walk o, and takes in every file there, its own
// included (a claimant run again after a crash starts from what it had
// given).
func openExchange(dir, name string, o Options) (*exchange, error) {
	e := &exchange{dir: filepath.Join(dir, "memos", walkKey(o)), self: name, shared: o.shared, maxOps: o.MaxOps, below: o.giveBelow,
		read: map[string]int64{}, stuck: map[string]fileMark{}, note: o.Progress}
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, fmt.Errorf("exhaust: memos: %w", err)
	}
	if err := e.reopen(); err != nil {
		return nil, err
	}
	for _, w := range writers {
		e.shared[w].logging()
	}
	return e, e.take()
}

// reopen takes in the claimant's own file and opens it to append. What
// follows its last whole frame is a frame torn by a kill of this claimant:
// it is cut off, or the frames appended after it would be read by no one.
func (e *exchange) reopen() error {
	own := filepath.Join(e.dir, e.self)
	if err := e.takeFile(e.self); err != nil {
		return err
	}
	f, err := os.OpenFile(own, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("exhaust: memos: %w", err)
	}
	if info, err := f.Stat(); err == nil && info.Size() > e.read[e.self] {
		e.say("%s: cut back from %d to %d bytes, its last whole frame: a frame torn when this claimant was stopped", own, info.Size(), e.read[e.self])
	}
	if err := f.Truncate(e.read[e.self]); err != nil {
		f.Close()
		return fmt.Errorf("exhaust: memos: %s: %w", own, err)
	}
	delete(e.stuck, e.self)
	e.out = f
	return nil
}

// walkKey names the walk of o among the walks sharing a claims directory:
// its size, kinds and checks, and the program that walks it (the states'
// outcomes depend on the code: a build with a mutant compiled in, or of
// another revision, shares nothing with this one).
func walkKey(o Options) string {
	h := sha256.New()
	fmt.Fprintf(h, "max %d\nkinds %q\nprogram %s\n", o.MaxOps, o.shape.kinds, programHash())
	for _, c := range o.Checks {
		fmt.Fprintf(h, "check %q\n", c.Name)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// programHash is the SHA-256 of the running executable, once; "" when it
// cannot be read (then the build's revision stands for it).
var programHash = sync.OnceValue(func() string {
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			if _, err := io.Copy(h, f); err == nil {
				return hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				fmt.Fprintf(h, "%s %s\n", s.Key, s.Value)
			}
		}
	}
	return "build " + hex.EncodeToString(h.Sum(nil))
})

// take takes in what the other claimants appended since the last take.
func (e *exchange) take() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	ents, err := os.ReadDir(e.dir)
	if err != nil {
		return fmt.Errorf("exhaust: memos: %w", err)
	}
	for _, ent := range ents {
		if ent.Name() == e.self || !ent.Type().IsRegular() {
			continue
		}
		// A file opened only when it grew: a claimant takes before every
		// part it claims, and on a network volume an open costs a round trip.
		info, err := ent.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("exhaust: memos: %w", err)
		}
		name, at := ent.Name(), e.read[ent.Name()]
		if m, ok := e.stuck[name]; ok && m == (fileMark{info.Size(), info.ModTime()}) {
			continue // stopped in, and not changed since
		}
		switch {
		case info.Size() < at:
			// Cut back by its claimant (a torn frame is never taken in,
			// so this is a file replaced): read it again from the start.
			e.say("%s: %d bytes, shorter than the %d taken in: read again from its start", filepath.Join(e.dir, name), info.Size(), at)
			e.read[name] = 0
		case info.Size() == at:
			continue
		}
		if err := e.takeFile(name); err != nil {
			return err
		}
	}
	return nil
}

// takeFile reads the whole frames of one file past what was read of it.
func (e *exchange) takeFile(name string) error {
	path := filepath.Join(e.dir, name)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("exhaust: memos: %w", err)
	}
	defer f.Close()
	e.opened++
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("exhaust: memos: %w", err)
	}
	at := e.read[name]
	b, err := io.ReadAll(io.NewSectionReader(f, at, 1<<62))
	if err != nil {
		return fmt.Errorf("exhaust: memos: %s: %w", path, err)
	}
	n, torn := e.frames(b)
	e.read[name] = at + int64(n)
	switch {
	case torn != nil:
		if _, was := e.stuck[name]; !was && name != e.self {
			e.say("%s: byte %d: %v: the rest not taken in until the file changes", path, at+int64(n), torn)
		}
		e.stuck[name] = fileMark{info.Size(), info.ModTime()}
	case n < len(b):
		e.stuck[name] = fileMark{info.Size(), info.ModTime()} // a frame not all there yet
	default:
		delete(e.stuck, name)
	}
	return nil
}

// say notes what a take met, on the run's progress writer.
func (e *exchange) say(format string, args ...any) {
	if e.note != nil {
		fmt.Fprintf(e.note, "exhaust: memos: "+format+"\n", args...)
	}
}

// frames takes in the whole frames at the start of b and returns the
// bytes they hold, and why it stopped before the end when a frame there is
// torn (nil when it is only not all there yet).
func (e *exchange) frames(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		size, k := binary.Uvarint(b[done:])
		if k == 0 {
			return done, nil // the length is not all there yet
		}
		if k < 0 || size > maxFrame {
			return done, fmt.Errorf("frame length: not a length below %d", maxFrame)
		}
		end := done + k + int(size) + 4
		if end > len(b) {
			return done, nil
		}
		recs := b[done+k : end-4]
		if crc32.ChecksumIEEE(recs) != binary.BigEndian.Uint32(b[end-4:end]) {
			return done, errors.New("frame checksum: the records do not match it")
		}
		got, err := e.records(recs)
		if err != nil {
			return done, err
		}
		for _, g := range got {
			e.shared[writers[g.lane]].learn(g.state, g.below)
		}
		done = end
	}
	return done, nil
}

// records reads one frame's states: a lane (its index in writers), a
// fingerprint, the tallies below it (their count, then six counts each).
// A frame is taken in whole or not at all.
func (e *exchange) records(b []byte) ([]learned, error) {
	var out []learned
	r := bytes.NewReader(b)
	for r.Len() > 0 {
		w, _ := r.ReadByte()
		if int(w) >= len(writers) {
			return nil, fmt.Errorf("record lane: %d, want below %d", w, len(writers))
		}
		var state Fingerprint
		if _, err := io.ReadFull(r, state[:]); err != nil {
			return nil, fmt.Errorf("record fingerprint: %w", err)
		}
		n, err := binary.ReadUvarint(r)
		if err != nil || n > uint64(e.maxOps) {
			return nil, fmt.Errorf("record tallies: a count up to %d, got %d (%v)", e.maxOps, n, err)
		}
		below := make([]tally, n)
		for i := range below {
			t := &below[i]
			for _, c := range t.fields() {
				v, err := binary.ReadUvarint(r)
				if err != nil {
					return nil, fmt.Errorf("record tally: %w", err)
				}
				*c = int64(v)
			}
			if t.failures != 0 {
				return nil, errors.New("record tally: a failure below a state passed on")
			}
		}
		out = append(out, learned{lane: w, given: given{state, below}})
	}
	return out, nil
}

// learned is a state another claimant gave, on its lane.
type learned struct {
	lane byte
	given
}

// give appends what the lanes expanded since the last give, in one frame.
func (e *exchange) give() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	recs := e.buf[:0]
	for i, w := range writers {
		for _, k := range e.shared[w].drain() {
			if len(k.below) < e.below {
				continue
			}
			recs = append(recs, byte(i))
			recs = append(recs, k.state[:]...)
			recs = binary.AppendUvarint(recs, uint64(len(k.below)))
			for _, t := range k.below {
				for _, c := range t.fields() {
					recs = binary.AppendUvarint(recs, uint64(*c))
				}
			}
		}
	}
	e.buf = recs
	if len(recs) == 0 {
		return nil
	}
	frame := binary.AppendUvarint(make([]byte, 0, len(recs)+binary.MaxVarintLen64+4), uint64(len(recs)))
	frame = append(frame, recs...)
	frame = binary.BigEndian.AppendUint32(frame, crc32.ChecksumIEEE(recs))
	if _, err := e.out.Write(frame); err != nil {
		return fmt.Errorf("exhaust: memos: %w", err)
	}
	return nil
}

// close gives what is left and closes the claimant's file.
func (e *exchange) close() error {
	err := e.give()
	return errors.Join(err, e.out.Close())
}

// given is a state kept in a shared memo, to give to the other claimants.
type given struct {
	state Fingerprint
	below []tally
}
