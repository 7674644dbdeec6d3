package harness

import (
	"bytes"
	"encoding/json"
	"fmt"

	"sessiondag/impl/webui"
	"sessiondag/internal/jsoncmp"
	"sessiondag/model"
)

// Sections are the parts of a view, compared in this order so the first
// difference reported is the most basic one.
var Sections = []string{"stored_head", "head_id", "fallback_used", "messages", "all", "chain", "branch", "render"}

// ViewDiff compares two views (any values that marshal to the view
// document) and returns the first differing section with a go-cmp diff
// (-want +got) or, when only key order differs, the first key out of place;
// "" when they agree. Key order counts: the original sends it.
func ViewDiff(want, got any) (section, diff string) {
	// Fast paths: views shown equal value by value, or identical bytes, need
	// no comparison of the decoded documents (the common case).
	if sameValues(want, got) {
		return "", ""
	}
	return documentDiff(want, got)
}

// documentDiff is ViewDiff over the marshalled documents.
func documentDiff(want, got any) (section, diff string) {
	wb, err1 := json.Marshal(want)
	gb, err2 := json.Marshal(got)
	if err1 == nil && err2 == nil && bytes.Equal(wb, gb) {
		return "", ""
	}
	w, err := sectionsOf(want)
	if err != nil {
		return "marshal", err.Error()
	}
	g, err := sectionsOf(got)
	if err != nil {
		return "marshal", err.Error()
	}
	for _, s := range Sections {
		wv, _ := w.Get(s)
		gv, _ := g.Get(s)
		if d := jsoncmp.Diff(wv, gv); d != "" {
			return s, d
		}
	}
	// The sections agree: what is left is the view's own keys, their order
	// included.
	if d := jsoncmp.Diff(w, g); d != "" {
		return "view", d
	}
	return "", ""
}

func sectionsOf(v any) (jsoncmp.Object, error) {
	d, err := jsoncmp.Of(v)
	if err != nil {
		return nil, err
	}
	o, ok := d.(jsoncmp.Object)
	if !ok {
		return nil, fmt.Errorf("view is not an object")
	}
	return o, nil
}

// TargetDiff compares a load with the intended view: the head and the
// projected chain, key order included ("" when they agree).
func TargetDiff(want model.TargetView, l *webui.Loaded) string {
	got := Projected(l)
	if SameView(want, got) { // the same rows make the same document
		return ""
	}
	if got.Chain == nil {
		got.Chain = []model.TargetRow{}
	}
	if want.Chain == nil {
		want.Chain = []model.TargetRow{}
	}
	w, err := roundTrip(want)
	if err != nil {
		return err.Error()
	}
	g, err := roundTrip(got)
	if err != nil {
		return err.Error()
	}
	return jsoncmp.Diff(w, g)
}

func roundTrip(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsoncmp.Decode(b)
}
