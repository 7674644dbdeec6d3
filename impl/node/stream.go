package node

import "io"

// WriteView writes v to w as a view is sent (MarshalJSON's text: standard
// JSON, NaN and infinities as null, valid UTF-8) while it goes, without
// recursion and without holding the text: a view may share one subtree
// between many places (runtime cards of nested runs) and be far larger
// written out than in memory, and nest deeper than a JSON decoder's
// default bound. Memory is a buffer and a stack as deep as v.
func WriteView(w io.Writer, v Value) error {
	const flushAt = 64 << 10
	type frame struct {
		isObj bool
		arr   []Value
		obj   []Member
		next  int
	}
	buf := make([]byte, 0, flushAt+4096)
	var stack []frame
	flush := func() error {
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	for {
		switch v.K {
		case Array:
			buf = append(buf, '[')
			stack = append(stack, frame{arr: v.A})
		case Object:
			buf = append(buf, '{')
			f := frame{isObj: true}
			if v.O != nil {
				f.obj = v.O.M
			}
			stack = append(stack, f)
		default:
			buf = AppendJSON(buf, v, view)
		}
		if len(buf) >= flushAt {
			if err := flush(); err != nil {
				return err
			}
		}
		// Close finished containers, then pick the next value.
		for {
			if len(stack) == 0 {
				return flush()
			}
			f := &stack[len(stack)-1]
			if !f.isObj && f.next < len(f.arr) {
				if f.next > 0 {
					buf = append(buf, ',')
				}
				v = f.arr[f.next]
				f.next++
				break
			}
			if f.isObj && f.next < len(f.obj) {
				if f.next > 0 {
					buf = append(buf, ',')
				}
				m := f.obj[f.next]
				buf = append(appendSafeString(buf, m.Key), ':')
				v = m.Val
				f.next++
				break
			}
			if f.isObj {
				buf = append(buf, '}')
			} else {
				buf = append(buf, ']')
			}
			stack = stack[:len(stack)-1]
		}
	}
}
