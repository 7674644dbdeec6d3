package harness

import "fmt"

// A Finding is a property failing on a script: which check, on which kind
// of data, after how many ops, what is wrong and the evidence (a go-cmp diff
// -want +got, or the views that disagree). checker/campaign saves it as a
// replayable file.
type Finding struct {
	Check string
	Data  Data
	Step  int // ops applied when the check failed
	What  string
	Diff  string
}

func (f *Finding) Error() string {
	return fmt.Sprintf("%s [%s]: %s, after op %d", f.Check, f.Data.Name, f.What, f.Step)
}
