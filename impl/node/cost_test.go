package node_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"sessiondag/impl/node"
)

// TestCostBoundsTheParse: Cost is at least what ParseString allocates, and
// what the parses of the JSON held in its strings allocate, for documents
// drawn from a fixed seed: small values in long arrays, empty and small
// objects, objects past the size whose keys go through a map (with
// duplicate keys), escaped strings, deep nesting and strings that hold
// JSON (escaped or not). The allocations are counted by the runtime
// (MemStats.TotalAlloc), from a pool of parsers that holds none with room
// for sizes.
func TestCostBoundsTheParse(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts: not in -short")
	}
	src := rand.New(rand.NewPCG(47, 1))
	for i := range 60 {
		doc := drawDoc(src, 0)
		if i%3 == 0 && len(doc) < 1<<14 {
			doc = "[" + strings.Repeat(doc+", ", src.IntN(200)) + doc + "]"
		}
		cost := node.Cost(doc)
		allocated, err := allocatedBy(doc)
		if err != nil {
			t.Fatalf("document %d does not parse: %v\n%.300s", i, err, doc)
		}
		if testing.Verbose() {
			t.Logf("%d bytes: allocated %d, cost %d (%.2f)", len(doc), allocated, cost, float64(allocated)/float64(cost))
		}
		if int64(allocated) > cost {
			t.Fatalf("document %d of %d bytes: its parses allocated %d bytes, Cost says %d\n%.300s", i, len(doc), allocated, cost, doc)
		}
	}
}

// allocatedBy is what parsing doc, and each string of it that holds a JSON
// array or object, allocates: the least of three cold parses, since the
// runtime's count is the process's and a goroutine left by another test may
// allocate meanwhile.
func allocatedBy(doc string) (uint64, error) {
	least := uint64(0)
	for k := range 3 {
		n, err := allocatedOnce(doc)
		if err != nil {
			return 0, err
		}
		if k == 0 || n < least {
			least = n
		}
	}
	return least, nil
}

func allocatedOnce(doc string) (uint64, error) {
	runtime.GC() // the pool of parsers is emptied: a cold parse,
	runtime.GC()
	node.ParseString("0") // but for the pool's own bookkeeping, made once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	v, err := node.ParseString(doc)
	if err == nil {
		err = parseInner(v)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// parseInner parses each string of v that holds a JSON array or object,
// as a reader does with a message's extra.
func parseInner(v node.Value) error {
	switch v.K {
	case node.String:
		if t := strings.TrimLeft(v.S, " \t\n\r"); t != "" && (t[0] == '[' || t[0] == '{') {
			_, err := node.ParseString(v.S)
			return err
		}
	case node.Array:
		for _, e := range v.A {
			if err := parseInner(e); err != nil {
				return err
			}
		}
	case node.Object:
		for _, m := range v.O.M {
			if err := parseInner(node.Str(m.Key)); err != nil {
				return err
			}
			if err := parseInner(m.Val); err != nil {
				return err
			}
		}
	}
	return nil
}

// drawDoc draws a JSON text.
func drawDoc(src *rand.Rand, depth int) string {
	small := []string{"0", "1", "-2.5e3", "true", "null", `""`, `"a"`, "[]", "{}", `{"a":1}`, `"é\n"`, `"\ud83d\ude00"`}
	n := src.IntN(8)
	if depth > 4 {
		n = 0
	}
	switch k := src.IntN(7); {
	case n == 0 || k == 0:
		return small[src.IntN(len(small))]
	case k == 1: // a long array of one small value
		v := small[src.IntN(len(small))]
		return "[" + strings.Repeat(v+",", src.IntN(5000)) + v + "]"
	case k == 2: // an object past smallObject members, some keys twice
		var b strings.Builder
		b.WriteString("{")
		for j := range 33 + src.IntN(400) {
			fmt.Fprintf(&b, `"k%d": %s, `, src.IntN(j+1), drawDoc(src, 5))
		}
		b.WriteString(`"last": 0}`)
		return b.String()
	case k == 3: // a string holding JSON, escaped or not
		inner := drawDoc(src, depth+1)
		if src.IntN(2) == 0 && !strings.ContainsAny(inner, "\"\\\n") {
			return `"` + inner + `"`
		}
		return node.Dumps(node.Str(" " + inner))
	case k == 4: // deep nesting
		d := src.IntN(3000)
		return strings.Repeat("[", d) + drawDoc(src, depth+1) + strings.Repeat("]", d)
	case k == 5:
		parts := make([]string, n)
		for j := range parts {
			parts[j] = drawDoc(src, depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	default:
		parts := make([]string, n)
		for j := range parts {
			parts[j] = fmt.Sprintf(`"%s\t%d": %s`, strings.Repeat("k", src.IntN(40)), j, drawDoc(src, depth+1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
}

// TestParseStringLimit: a document that would cost more than the limit is
// refused before anything of it is built, with a *CostError giving its
// size, its cost and the limit; at its cost it parses.
func TestParseStringLimit(t *testing.T) {
	doc := "[" + strings.Repeat("0,", 1<<16) + "0]"
	cost := node.Cost(doc)
	if cost < int64(len(doc))*25 {
		t.Fatalf("a list of zeros of %d bytes costs %d: a value alone is 56 bytes for two", len(doc), cost)
	}
	_, err := node.ParseStringLimit(doc, cost-1)
	var ce *node.CostError
	if !errors.As(err, &ce) || ce.Size != int64(len(doc)) || ce.Cost != cost || ce.Limit != cost-1 {
		t.Fatalf("ParseStringLimit(cost-1) = %v, want a CostError of %d bytes costing %d", err, len(doc), cost)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("%d bytes", len(doc))) || !strings.Contains(err.Error(), node.MiB(cost-1)) {
		t.Errorf("%q: want the size and the limit", err)
	}
	if v, err := node.ParseStringLimit(doc, cost); err != nil || len(v.A) != 1<<16+1 {
		t.Errorf("ParseStringLimit(cost): %v", err)
	}
	n, err := node.DecodeStringLimit(`{"id": "a", "output": `+doc+`}`, cost)
	if !errors.As(err, &ce) || n != nil {
		t.Errorf("DecodeStringLimit over the limit: %v", err)
	}
}

// TestCostCountsJSONInStrings: a string holding a JSON array costs that
// array's parse too, however it is escaped; other strings cost their
// bytes (and a decoded copy when escaped).
func TestCostCountsJSONInStrings(t *testing.T) {
	list := "[" + strings.Repeat("0,", 1<<14) + "0]"
	plain := node.Cost(`{"extra": "x` + list[1:len(list)-1] + `"}`)
	for _, doc := range []string{
		`{"extra": "` + list + `"}`,
		`{"extra": "  ` + list + `"}`,
		`{"extra": "\n` + list + `"}`,
		`{"extra": "\u005b` + list[1:] + `"}`,
	} {
		if c := node.Cost(doc); c < plain+int64(len(list))*20 {
			t.Errorf("%.30s…: cost %d, a string of text as long costs %d: the JSON in it not counted", doc, c, plain)
		}
	}
}
