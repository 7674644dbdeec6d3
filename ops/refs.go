package ops

import (
	"reflect"
	"strings"
)

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
			out = append(out, FieldIDs(t.Field(i), v.Field(i).String())...)
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

// FieldIDs are the ids an id field's value holds: none for "", the value
// cut at its separator for a field tagged list:"," (the copies of a
// compaction), else the value itself.
func FieldIDs(f reflect.StructField, value string) []string {
	if value == "" {
		return nil
	}
	if sep := f.Tag.Get("list"); sep != "" {
		return strings.Split(value, sep)
	}
	return []string{value}
}
