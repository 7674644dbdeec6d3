// Package mutantsrc reads the source of a mutant registry (impl/mutant's or
// checker/mutant's names.go): the one parser both `make mutants`, which maps
// a mutant to the code that switches it on, and the repository test that
// every mutant is wired use, so the two cannot read a registry differently.
package mutantsrc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// Constants is the string constants the files declare, by identifier.
func Constants(fset *token.FileSet, files []string) (map[string]string, error) {
	out := map[string]string{}
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			return nil, err
		}
		var bad error
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, err := strconv.Unquote(lit.Value)
					if err != nil && bad == nil {
						bad = fmt.Errorf("%s: constant %s: %w", fset.Position(lit.Pos()), id.Name, err)
					}
					out[id.Name] = v
				}
			}
			return true
		})
		if bad != nil {
			return nil, bad
		}
	}
	return out, nil
}
