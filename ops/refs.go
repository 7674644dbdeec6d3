package ops

import "reflect"

// Defines lists the ids op creates (its fields tagged ref:"new"), in field
// order, leaving out empty ones.
func Defines(op Op) []string { return refs(op, "new") }

// Names lists the ids op refers to that some earlier op must have created
// (its fields tagged ref:"node"), in field order, leaving out empty ones.
// A reference may dangle where ops/README.md allows it.
func Names(op Op) []string { return refs(op, "node") }

func refs(op Op, which string) []string {
	var out []string
	v := reflect.ValueOf(op)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("ref") == which {
			if s := v.Field(i).String(); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// Redirect returns op with every reference to the id from (a field tagged
// ref:"node") changed to to; other fields are left alone.
func Redirect(op Op, from, to string) Op {
	v := reflect.New(reflect.TypeOf(op)).Elem()
	v.Set(reflect.ValueOf(op))
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("ref") == "node" && v.Field(i).String() == from {
			v.Field(i).SetString(to)
		}
	}
	return v.Interface().(Op)
}
