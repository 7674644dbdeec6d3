package jsonstream

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCheck: the streaming check agrees with encoding/json (and UTF-8)
// on documents within its depth bound, and takes deeper ones.
func TestCheck(t *testing.T) {
	docs := []string{
		`{}`, `[]`, `[1,2.5,-0,1e9,true,false,null,"x"]`, `{"a":{"b":[{}]},"c":"\u00e9\n"}`, ` [ 1 , { "k" : [ ] } ] `,
		`"s"`, `12`, `null`, `{"a":1,}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `[01]`, `[1.]`, `[tru]`, `["\x"]`,
		"[\"\xff\"]", "[\"a\x01\"]", `[`, `]`, `[1]]`, `{"a":1}{}`, ``, `[,1]`, `{"a":}`, `["\u12"]`, `[-]`, `[1e]`,
		`{"a":[1,{"b":null}],"c":[[],[[]]]}`, `[NaN]`,
	}
	for _, d := range docs {
		want := json.Valid([]byte(d)) && utf8.ValidString(d)
		_, err := Check(strings.NewReader(d))
		got := err == nil
		if got != want {
			t.Errorf("%q: valid %v, encoding/json %v", d, got, want)
		}
	}
	deep := strings.Repeat(`{"c":[`, 20000) + "1" + strings.Repeat("]}", 20000)
	if depth, err := Check(strings.NewReader(deep)); err != nil || depth != 40000 {
		t.Errorf("40,000 levels: depth %d, %v", depth, err)
	}
}
