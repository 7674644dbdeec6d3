package benchgate

import (
	"os"
	"testing"
)

func TestZZDemo(t *testing.T) {
	args := os.Getenv("BG_ARGS")
	if args == "" {
		t.Skip()
	}
	code := Main(splitArgs(args), os.Stdout, os.Stdout)
	os.Stdout.WriteString("exit " + string(rune('0'+code)) + "\n")
}

func splitArgs(s string) []string {
	var out []string
	cur := ""
	for _, c := range s {
		if c == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
