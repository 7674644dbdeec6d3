package harness

import "testing"

// Every check declares the data it holds on (a driver runs a check only on
// the kinds it declares) and says what it is; names are unique.
func TestChecksDeclareTheirData(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range append(Checks, Validity) {
		if len(c.Data) == 0 || c.Name == "" || c.Prop == "" || c.Doc == "" {
			t.Errorf("check %q declares no data, name, property or doc", c.Name)
		}
		if seen[c.Name] {
			t.Errorf("two checks are named %q", c.Name)
		}
		seen[c.Name] = true
		if (c.Run == nil) != c.Damage {
			t.Errorf("check %q: a check runs after each op (Run) or reads a damaged directory (Damage), one of them", c.Name)
		}
	}
}
