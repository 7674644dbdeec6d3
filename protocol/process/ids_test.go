package process

import (
	"strings"
	"testing"

	"sessiondag/impl/node"
)

// TestIdentityMappingsAreMappings: an id the implementation reports as
// itself is recorded like any other: mapped to another id later, or given
// to a second script id, it is a malformed reply (docs/protocol.md, "One
// op"); ids reported the same way again are fine.
func TestIdentityMappingsAreMappings(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps []string
		want  string // the error of the last step; "" none
	}{
		{"itself, then another", []string{`{"u1":"u1"}`, `{"u1":"9f2c"}`}, `ids: "u1" mapped to "u1" before, now to "9f2c"`},
		{"itself, then given to another", []string{`{"u1":"u1"}`, `{"u2":"u1"}`}, `ids: "u1" and "u2" both map to "u1"`},
		{"another, then itself", []string{`{"u1":"9f2c"}`, `{"u1":"u1"}`}, `ids: "u1" mapped to "9f2c" before, now to "u1"`},
		{"itself twice", []string{`{"u1":"u1"}`, `{"u1":"u1","u1_reply":"u1_reply"}`}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Session
			var err error
			for _, step := range c.steps {
				v, perr := node.ParseString(step)
				if perr != nil {
					t.Fatal(perr)
				}
				if err = s.addIDs(v); err != nil {
					break
				}
			}
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("%v, want %q", err, c.want)
			}
			if len(s.rename) != 0 && c.want == "" {
				t.Errorf("ids reported as themselves are renamed: %v", s.rename)
			}
		})
	}
}
