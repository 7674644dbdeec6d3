package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The encoders write into byte slices and skip work on plain strings; these
// tests hold them to the plain rune-by-rune and string-building readings of
// json.dumps and repr(float) below, on any string and any finite float.

// runeByRuneString is json.dumps(s, ensure_ascii=False) read rune by rune.
func runeByRuneString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// layoutFloat is repr(float) built from strings: the digits of the shortest
// round trip, laid out by Python's rule.
func layoutFloat(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if exp < -4 || exp >= 16 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	if exp >= 0 {
		if len(digits) <= exp+1 {
			return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		}
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	}
	return sign + "0." + strings.Repeat("0", -exp-1) + digits
}

func TestStringEncoderAgreesRuneByRune(t *testing.T) {
	for _, s := range []string{"", "plain", "é ✓ \u2028", "a\"b\\c\n\r\t\b\f\x01\x1f", "bad \xff\xfe", "\xef\xbf\xbd", "\xe2\x82", "x\x7f"} {
		if got, want := pyJSONString(s), runeByRuneString(s); got != want {
			t.Errorf("pyJSONString(%q) = %s, want %s", s, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOf(rapid.SampledFrom([]byte("a\"\\\n\x01\x1f \x7f\x80\xbf\xc3\xa9\xe2\x9c\x93\xff"))).Draw(t, "bytes"))
		if got, want := pyJSONString(s), runeByRuneString(s); got != want {
			t.Fatalf("pyJSONString(%q) = %s, want %s", s, got, want)
		}
		if got, _ := AppendJSON([]byte("x"), s); string(got) != "x"+runeByRuneString(s) {
			t.Fatalf("AppendJSON(%q) = %s", s, got)
		}
	})
}

func TestFloatEncoderAgreesWithLayout(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 1.5, 1782000001.5, 1e15, 1e16, 9999999999999998, 1e-4, 1e-5,
		0.0001234, 123456789012345680, math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 2.5e-7} {
		if got, want := pyFloatRepr(f), layoutFloat(f); got != want {
			t.Errorf("PyFloatRepr(%v) = %s, want %s", f, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		f := math.Float64frombits(rapid.Uint64().Draw(t, "bits"))
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return
		}
		if got, want := pyFloatRepr(f), layoutFloat(f); got != want {
			t.Fatalf("PyFloatRepr(%v) = %s, want %s", f, got, want)
		}
	})
}

// pyDumpsASCII against Python's json.dumps with its defaults (ensure_ascii):
// everything outside ' '..'~' escaped, DEL included, a character outside
// the BMP as its surrogate pair.
func TestDumpsASCII(t *testing.T) {
	v := newObject("a", "é\x7f𝄞", "b", []any{Float(1), Float(1e16), "\t"})
	require.Equal(t, `{"a": "\u00e9\u007f\ud834\udd1e", "b": [1.0, 1e+16, "\t"]}`, pyDumpsASCII(v))
	require.Equal(t, `{"q": "plain"}`, pyDumpsASCII(newObject("q", "plain")))
}
