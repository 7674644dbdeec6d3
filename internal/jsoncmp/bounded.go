package jsoncmp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The bounds of a diff: documents of up to smallDocs bytes of text (both
// together) get go-cmp's diff; larger ones the first shownDiffs
// differences, each value cut to clipText bytes around where it differs,
// and the count of the rest. A finding then prints a diff of bounded
// length, at a cost linear in the documents, however large a view is.
const (
	smallDocs  = 64 << 10
	shownDiffs = 5
	clipText   = 60
)

// small reports whether two documents together hold at most limit bytes
// of text (strings, keys and numbers), stopping once they hold more.
func small(want, got any, limit int) bool {
	n := limit
	return fits(want, &n) && fits(got, &n)
}

func fits(v any, n *int) bool {
	switch v := v.(type) {
	case Object:
		for _, m := range v {
			if *n -= len(m.Key) + 4; *n < 0 || !fits(m.Value, n) {
				return false
			}
		}
	case []any:
		for _, e := range v {
			if !fits(e, n) {
				return false
			}
		}
	case string:
		*n -= len(v) + 2
	case json.Number:
		*n -= len(v)
	default:
		*n -= 4
	}
	return *n >= 0
}

// differences collects the differences of two documents: the first few
// in full, and how many there are.
type differences struct {
	shown []string
	n     int
}

func (d *differences) add(p Path, what string) {
	d.n++
	if len(d.shown) < shownDiffs {
		d.shown = append(d.shown, p.String()+": "+what)
	}
}

// boundedDiff is Diff for large documents: one line per difference, the
// first shownDiffs of them, then the count; "" when they are equal.
func boundedDiff(want, got any) string {
	var d differences
	d.walk(nil, want, got)
	if d.n == 0 {
		return ""
	}
	s := fmt.Sprintf("%d differences (-want +got), the first %d:\n", d.n, len(d.shown))
	if d.n <= len(d.shown) {
		s = fmt.Sprintf("%d differences (-want +got):\n", d.n)
	}
	s += strings.Join(d.shown, "\n") + "\n"
	if more := d.n - len(d.shown); more > 0 {
		s += fmt.Sprintf("… and %d more\n", more)
	}
	return s
}

func (d *differences) walk(p Path, want, got any) {
	switch w := want.(type) {
	case Object:
		g, ok := got.(Object)
		if !ok {
			d.add(p, "-"+brief(want)+" +"+brief(got))
			return
		}
		d.objects(p, w, g)
	case []any:
		g, ok := got.([]any)
		if !ok {
			d.add(p, "-"+brief(want)+" +"+brief(got))
			return
		}
		for i := 0; i < len(w) && i < len(g); i++ {
			d.walk(with(p, i), w[i], g[i])
		}
		if len(w) != len(g) {
			d.add(p, fmt.Sprintf("-%d items +%d items", len(w), len(g)))
		}
	case string:
		if g, ok := got.(string); !ok {
			d.add(p, "-"+brief(want)+" +"+brief(got))
		} else if w != g {
			d.add(p, strings2(w, g))
		}
	default: // nil, bool, json.Number: compared as the text they are
		if brief(want) != brief(got) {
			d.add(p, "-"+brief(want)+" +"+brief(got))
		}
	}
}

// objects compares two objects by key (order is FirstMisplaced's).
func (d *differences) objects(p Path, w, g Object) {
	gv := make(map[string]any, len(g))
	for _, m := range g {
		gv[m.Key] = m.Value
	}
	seen := make(map[string]bool, len(w))
	for _, m := range w {
		seen[m.Key] = true
		v, ok := gv[m.Key]
		if !ok {
			d.add(with(p, m.Key), "-"+brief(m.Value)+" (missing)")
			continue
		}
		d.walk(with(p, m.Key), m.Value, v)
	}
	for _, m := range g {
		if !seen[m.Key] {
			seen[m.Key] = true
			d.add(with(p, m.Key), "+"+brief(m.Value)+" (not wanted)")
		}
	}
}

// strings2 shows two strings that differ around the first byte they
// differ at.
func strings2(w, g string) string {
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(0, i-clipText/2)
	cut := func(s string) string {
		to := min(len(s), from+clipText)
		out := strconv.Quote(s[from:to])
		if from > 0 {
			out = "…" + out
		}
		if to < len(s) {
			out += "…"
		}
		return out
	}
	return fmt.Sprintf("-%s +%s (%d and %d bytes, first different at byte %d)", cut(w), cut(g), len(w), len(g), i)
}

// brief is a value as JSON, cut to clipText bytes.
func brief(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	if len(b) > clipText {
		return string(b[:clipText]) + fmt.Sprintf("… (%d bytes)", len(b))
	}
	return string(b)
}
