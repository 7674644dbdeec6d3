package repo

import (
	"os/exec"
	"strings"
	"testing"
)

// The shipped binary links neither the testing package nor rapid: the
// generator's rapid source lives in the test-only checker/gen/rapidsrc.
func TestToolLinksNoTestCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "./cmd/sessiondag")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "testing" || strings.HasPrefix(pkg, "pgregory.net/rapid") || strings.HasPrefix(pkg, "github.com/stretchr/testify") {
			t.Errorf("cmd/sessiondag links %s", pkg)
		}
	}
}
