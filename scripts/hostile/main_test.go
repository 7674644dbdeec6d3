package main

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestValidJSON: the streaming check agrees with encoding/json (and UTF-8)
// on documents within its depth bound, and takes deeper ones.
func TestValidJSON(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `[1,2.5,-0,1e9,true,false,null,"x"]`, `{"a":{"b":[{}]},"c":"\u00e9\n"}`, ` [ 1 , { "k" : [ ] } ] `,
		`"s"`, `12`, `null`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `[01]`, `[1.]`, `[tru]`, `["\x"]`,
		"[\"\xff\"]", "[\"a\x01\"]", `[`, `]`, `[1]]`, `{"a":1}{}`, ``, `[,1]`, `{"a":}`, `["\u12"]`, `[-]`, `[1e]`,
		`{"a":[1,{"b":null}],"c":[[],[[]]]}`, `[NaN]`,
	}
	for _, d := range docs {
		want := json.Valid([]byte(d)) && utf8.ValidString(d)
		got := validJSON(bufio.NewReader(strings.NewReader(d))) == nil
		if got != want {
			t.Errorf("%q: valid %v, encoding/json %v", d, got, want)
		}
	}
	deep := strings.Repeat(`{"c":[`, 20000) + "1" + strings.Repeat("]}", 20000)
	if err := validJSON(bufio.NewReader(strings.NewReader(deep))); err != nil {
		t.Errorf("20,000 levels: %v", err)
	}
}
