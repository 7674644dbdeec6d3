package plot

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestPageIsWellFormedSVG(t *testing.T) {
	charts := []Chart{
		{Title: "a <b>", XLabel: "x", YLabel: "y", YFmt: Duration, Series: []Series{
			{Name: "s1", Color: "#000", X: []float64{1e3, 1e4, 1e5}, Y: []float64{2e6, 2e7, 3e8}},
			{Name: "s2", Color: "#f00", Dashed: true, X: []float64{1e3, 1e4}, Y: []float64{0, 5}}, // 0 is skipped
		}, Refs: []Ref{{Y: 250, Label: "target", Color: "#00f"}}},
		{Title: "empty"},
	}
	svg := Page("t & t", charts, []Legend{{Label: "s1", Color: "#000"}, {Label: "s2", Color: "#f00", Dashed: true}})
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	polylines := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			polylines++
		}
	}
	if polylines != 2 {
		t.Errorf("%d polylines, want 2 (s1, and s2 with its one plottable point)", polylines)
	}
}

func TestLabels(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Human(1000), "1k"}, {Human(2e6), "2M"}, {Human(0.5), "0.5"}, {Human(100000), "100k"},
		{Duration(500), "500ns"}, {Duration(2e3), "2µs"}, {Duration(1.5e9), "1.5s"}, {Duration(1e7), "10ms"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
