package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// benchPackage keeps the results of the bench package, whatever the module
// path it was built under.
const benchPackage = `pkg:/\/bench$/`

// nameKeys are the name's parts the report groups by. .fullname comes last
// and, with the other keys taken out of it, is "*" followed by what is left
// of the name: the variant ("*/flags=off", "*/open-only").
const nameKeys = ".name, /nodes, /gomaxprocs, .fullname"

// names turns benchmark names into series keys.
type names struct {
	proj                     *benchproc.Projection
	base, nodes, procs, rest *benchproc.Field
}

func newNames(filter *benchproc.Filter) (*names, error) {
	var pp benchproc.ProjectionParser
	proj, err := pp.Parse(nameKeys, filter)
	if err != nil {
		return nil, err
	}
	f := proj.Fields()
	return &names{proj: proj, base: f[0], nodes: f[1], procs: f[2], rest: f[3]}, nil
}

// key returns the series of a result (nodes 0 when its name has no size)
// and its GOMAXPROCS ("" when the name has no -N suffix).
func (nm *names) key(res *benchfmt.Result) (key, string, error) {
	pk := nm.proj.Project(res)
	k := key{bench: pk.Get(nm.base)}
	if s := pk.Get(nm.nodes); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return key{}, "", fmt.Errorf("bad size in %s: %w", res.Name, err)
		}
		k.nodes = n
	}
	// Of several parts left, the last is the variant.
	rest := pk.Get(nm.rest)
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		k.variant = rest[i+1:]
	}
	return k, pk.Get(nm.procs), nil
}

// read parses a go test -bench output, keeping the bench package's
// results whose name has a size.
func read(path string) (*data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("benchmark results: %w", err)
	}
	defer f.Close()
	d, err := parse(benchfmt.NewReader(f, path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

func parse(rd *benchfmt.Reader) (*data, error) {
	filter, err := benchproc.NewFilter(benchPackage)
	if err != nil {
		return nil, err
	}
	nm, err := newNames(filter)
	if err != nil {
		return nil, err
	}
	d := &data{s: map[key]series{}, config: map[string]string{}}
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result) // syntax errors are skipped
		if !ok {
			continue
		}
		if keep, _ := filter.Apply(res); !keep {
			continue
		}
		if err := d.add(nm, res); err != nil {
			return nil, err
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(d.s) == 0 {
		return nil, errors.New("no results of the bench package")
	}
	for k := range d.s {
		if !slices.Contains(d.sizes, k.nodes) {
			d.sizes = append(d.sizes, k.nodes)
		}
	}
	slices.Sort(d.sizes)
	d.nodes = storedNodes(d.s)
	return d, nil
}

// add files one result under its series.
func (d *data) add(nm *names, res *benchfmt.Result) error {
	for _, c := range res.Config {
		if c.File {
			d.config[c.Key] = string(c.Value)
		}
	}
	k, procs, err := nm.key(res)
	if err != nil {
		return err
	}
	if procs != "" {
		d.procs = procs
	}
	if k.nodes == 0 {
		return nil
	}
	sr := d.s[k]
	if sr == nil {
		sr = series{}
		d.s[k] = sr
	}
	addValues(sr, res.Values)
	return nil
}
