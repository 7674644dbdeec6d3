package node

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// CostError is a document refused before it was parsed: its values would
// take more memory than the limit the reader set.
type CostError struct {
	Size, Cost, Limit int64
}

func (e *CostError) Error() string {
	return fmt.Sprintf("a document of %d bytes would take %s in memory to parse, over the limit of %s",
		e.Size, MiB(e.Cost), MiB(e.Limit))
}

// MiB writes a count of bytes in mebibytes, for messages.
func MiB(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Cost is the memory a document costs once parsed: its own bytes (the
// values' strings are substrings of it), every array's elements and every
// object's members at their size, an escaped string's decoded copy, the
// map a large object's keys go through, the first pass's sizes, and the
// parse of every string in it that holds a JSON array or object (a reader
// parses a message's extra so). Each allocation is counted at its size
// rounded up as the allocator rounds it, so that Cost is at least what the
// parse allocates; it is computed in one pass that builds nothing.
func Cost(data string) int64 {
	var stack []opening
	return shape(data, nil, &stack, true) + alloc(brackets(data)*sizeBytes)
}

// brackets counts the [ and { of b, in strings too: the most containers
// it can open, and the sizes the first pass is given room for.
func brackets(b string) int64 {
	return int64(strings.Count(b, "[") + strings.Count(b, "{"))
}

// Bytes of the values a parse allocates.
const (
	valueBytes  = int64(unsafe.Sizeof(Value{}))
	memberBytes = int64(unsafe.Sizeof(Member{}))
	objBytes    = int64(unsafe.Sizeof(Obj{}))
	sizeBytes   = int64(unsafe.Sizeof(uint32(0)))
	// keyBytes bounds what the map of a large object's keys (set) takes
	// per member, its growth included: a slot of a string and an int, a
	// control byte, tables at most 8/7 full, and the tables it grew out of.
	keyBytes = 128
	// The first pass's stack of open containers is doubled as it grows:
	// what it allocated on the way is at most stackGrowth times the most
	// it held.
	openingBytes = int64(unsafe.Sizeof(opening{}))
	stackGrowth  = 4
	minStack     = 8 // the room the stack is first given
	parserBytes  = int64(unsafe.Sizeof(parser{})) + 16
)

// alloc is n bytes as the allocator hands them out: rounded up to its size
// class (sizeClasses; past 512 bytes with the 8-byte header an object of
// pointers carries) or, past 32 KiB, to whole pages.
func alloc(n int64) int64 {
	switch {
	case n <= 0:
		return 0
	case n > 512:
		n += 8
	}
	if n > sizeClasses[len(sizeClasses)-1] {
		return (n + 8<<10 - 1) &^ (8<<10 - 1)
	}
	i, _ := slices.BinarySearch(sizeClasses, n)
	return sizeClasses[i]
}

// sizeClasses are the Go runtime's sizes of small objects
// (runtime/sizeclasses.go).
var sizeClasses = []int64{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792,
	2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240,
	10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// shape is the first pass over a JSON text: it appends to *sizes (unless
// sizes is nil) the count of elements (members) of each array (object) of
// b in the order they open, and sums Cost but the sizes' room (nested: the
// JSON in its strings too). A count is the commas at the container's level
// plus one, unless nothing but blanks is between its brackets. It checks
// nothing: the parse does. Past maxDepth it stops: the parse fails there.
// *scratch is room for its stack of open containers, kept by the caller.
func shape(b string, sizes *[]uint32, scratch *[]opening, nested bool) int64 {
	stack := (*scratch)[:0]
	defer func() { *scratch = stack[:0] }()
	opened, deepest := 0, 0
	cost := int64(len(b)) + parserBytes
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			if len(stack) > 0 {
				stack[len(stack)-1].commas++
			}
			continue
		case ']', '}':
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				n := int64(0)
				if top.content {
					n = int64(top.commas) + 1
				}
				if sizes != nil {
					(*sizes)[top.at] = uint32(min(n, 1<<32-1))
				}
				cost += containerCost(top.object, n)
			}
			continue
		}
		if len(stack) > 0 {
			stack[len(stack)-1].content = true
		}
		switch c {
		case '[', '{':
			if len(stack) >= maxDepth {
				return cost + openCost(stack, deepest)
			}
			if len(stack) == cap(stack) {
				// Doubled: what the stack allocated on the way is at most
				// twice its last room (stackGrowth).
				stack = slices.Grow(stack, max(len(stack), minStack))
			}
			stack = append(stack, opening{at: uint32(opened), object: c == '{'})
			opened, deepest = opened+1, max(deepest, len(stack))
			if sizes != nil {
				*sizes = append(*sizes, 0)
			}
		case '"':
			end := stringEnd(b, i+1)
			if end < 0 {
				return cost + openCost(stack, deepest) // unterminated: the parse says where
			}
			cost += stringCost(b, i, end, nested)
			i = end
		default: // a number or a literal: skipped whole
			for i+1 < len(b) && scalar[b[i+1]] {
				i++
			}
		}
	}
	return cost + openCost(stack, deepest)
}

// scalar marks the bytes of numbers and literals (true, null, NaN…).
var scalar = func() (t [256]bool) {
	for _, c := range "0123456789+-.eEINaflnrstuy" {
		t[c] = true
	}
	return t
}()

// opening is an array or object the first pass is in.
type opening struct {
	at, commas      uint32 // its index in sizes; its commas so far
	object, content bool
}

// openCost counts the first pass's own stack, grown to deepest, and the
// containers never closed (a malformed document) as far as they went: the
// parse may build them before it fails.
func openCost(stack []opening, deepest int) int64 {
	c := stackGrowth * alloc(int64(max(deepest, minStack))*openingBytes)
	for _, top := range stack {
		c += containerCost(top.object, int64(top.commas)+1)
	}
	return c
}

// containerCost is what the parse allocates for an array or object of n
// elements or members.
func containerCost(object bool, n int64) int64 {
	if !object {
		return alloc(n * valueBytes)
	}
	c := alloc(objBytes) + alloc(n*memberBytes)
	if n > smallObject {
		c += n * keyBytes
	}
	return c
}

// stringEnd is the index of the quote that ends the string whose text
// starts at i, or -1 when it does not end.
func stringEnd(b string, i int) int {
	for {
		q := strings.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		backslashes := 0
		for j := q - 1; j >= i && b[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// stringCost is what the string token b[open:end+1] costs beyond the
// document's bytes: an escaped string is decoded into a buffer of its
// text's length and copied out; with nested, a string holding a JSON
// array or object costs that document's parse too.
func stringCost(b string, open, end int, nested bool) int64 {
	text := b[open+1 : end]
	escaped := strings.IndexByte(text, '\\') >= 0
	cost := int64(0)
	if escaped {
		cost = 2 * alloc(int64(len(text)))
	}
	if !nested || !mayHoldJSON(text) {
		return cost
	}
	if escaped {
		p := parser{b: b, i: open}
		s, err := p.str()
		if err != nil {
			return cost
		}
		text = s
	}
	if t := strings.TrimLeft(text, " \t\n\r"); t == "" || t[0] != '[' && t[0] != '{' {
		return cost
	}
	// The nested document's bytes are the string's (counted above, or in
	// the document): its parse costs the rest.
	// The check decoded it once already.
	if escaped {
		cost *= 2
	}
	var stack []opening
	inner := shape(text, nil, &stack, false) + alloc(brackets(text)*sizeBytes)
	return cost + inner - int64(len(text))
}

// mayHoldJSON reports whether a string's raw text may decode to a JSON
// array or object: it starts with one, a blank, or an escape.
func mayHoldJSON(text string) bool {
	return text != "" && strings.IndexByte("[{ \t\n\r\\", text[0]) >= 0
}
