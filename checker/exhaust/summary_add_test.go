package exhaust

import (
	"reflect"
	"testing"
)

// TestAddCountsEachFieldOnce: merging a shard's summary into an empty one
// gives that shard's counts, every number once — a field added twice (or
// forgotten) makes the merged summary of a split walk disagree with the
// walk's own.
func TestAddCountsEachFieldOnce(t *testing.T) {
	var one Summary
	v := reflect.ValueOf(&one).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			f.SetInt(1)
		case reflect.Float64:
			f.SetFloat(1)
		}
	}
	var sum Summary
	sum.add(one)
	got := reflect.ValueOf(sum)
	for i := 0; i < got.NumField(); i++ {
		name := got.Type().Field(i).Name
		if name == "MaxOps" || name == "Parts" {
			continue // what the walk was asked and how many parts it has, not counts: shards of one walk agree on them
		}
		switch f := got.Field(i); f.Kind() {
		case reflect.Int, reflect.Int64:
			if f.Int() != 1 {
				t.Errorf("%s: %d after adding 1 to 0", name, f.Int())
			}
		case reflect.Float64:
			if f.Float() != 1 {
				t.Errorf("%s: %g after adding 1 to 0", name, f.Float())
			}
		}
	}
}
