#!/bin/bash -eu
# Builds every native Go fuzz target of sessiondag (func FuzzXxx(f *testing.F)
# in a _test.go file) as a libFuzzer binary in $OUT. ClusterFuzzLite runs it
# in the OSS-Fuzz Go builder image (.clusterfuzzlite/Dockerfile), which puts
# compile_native_go_fuzzer_v2 on the PATH.
#
# Each target has one build_fuzzer line at the end: PACKAGE FUNCTION NAME.
# `go test ./internal/repo` fails when a fuzz target of the repository has no
# such line, or when a line names a target that is gone.
set -euo pipefail

cd "$SRC/sessiondag"

# No VCS stamps: nothing here reads them, and git can refuse a checkout that
# another user owns.
export GOFLAGS=-buildvcs=false

# When go.mod asks for a newer Go than the image has, the go command runs a
# toolchain it downloads into the module cache. The native fuzzer build
# overlays files of that toolchain's testing package, which Go refuses for
# files in the module cache: build with a writable copy of the toolchain.
goroot=$(go env GOROOT)
if [[ $goroot == "$(go env GOMODCACHE)"/* ]]; then
  cp -R "$goroot" "${WORK:-/tmp}/goroot"
  chmod -R u+w "${WORK:-/tmp}/goroot"
  export GOROOT="${WORK:-/tmp}/goroot" GOTOOLCHAIN=local
  export PATH="$GOROOT/bin:$PATH"
fi

# External test files moved aside for one build (see build_fuzzer).
hidden=()
restore_hidden() {
  local f
  for f in "${hidden[@]}"; do
    mv "$f.cflite-hidden" "$f"
  done
  hidden=()
}
trap restore_hidden EXIT

# build_fuzzer PACKAGE FUNCTION NAME builds the fuzz target FUNCTION of
# PACKAGE as $OUT/NAME.
#
# The builder compiles a package's _test.go files as ordinary files of the
# package. Files of an external test package (package foo_test, beside
# package foo) then make two packages in one directory, which Go refuses. So
# a target in an external test file is built from a copy of the package's
# external test files, made a package of its own under internal/cflite/NAME
# (in this container's copy of the repository only); and external test
# files beside a target of the package itself are moved aside for its build.
build_fuzzer() {
  local pkg=$1 func=$2 name=$3 dir file f copy xtests=()
  dir=$(go list -tags gofuzz -f '{{.Dir}}' "$pkg")
  read -r -a xtests < <(go list -tags gofuzz -f '{{join .XTestGoFiles " "}}' "$pkg") || true
  if ! file=$(grep -l "^func $func(" "$dir"/*_test.go); then
    echo "build.sh: no func $func in the tests of $pkg" >&2
    return 1
  fi
  if [[ " ${xtests[*]} " == *" ${file##*/} "* ]]; then
    copy=internal/cflite/$name
    mkdir -p "$copy"
    for f in "${xtests[@]}"; do
      sed 's/^package [A-Za-z0-9_]*_test$/package fuzztarget/' "$dir/$f" >"$copy/$f"
    done
    printf '%s\n' "// Package fuzztarget holds the external tests of $pkg for $name." \
      'package fuzztarget' >"$copy/doc.go"
    compile_native_go_fuzzer_v2 "sessiondag/$copy" "$func" "$name"
  else
    for f in "${xtests[@]}"; do
      mv "$dir/$f" "$dir/$f.cflite-hidden"
      hidden+=("$dir/$f")
    done
    compile_native_go_fuzzer_v2 "$pkg" "$func" "$name"
    restore_hidden
  fi
}

build_fuzzer sessiondag/bench/gate FuzzMainNoPanic benchgate_main_no_panic
build_fuzzer sessiondag/impl/adapter FuzzFromMessage adapter_from_message
build_fuzzer sessiondag/impl/adapter FuzzToMessage adapter_to_message
build_fuzzer sessiondag/impl/node FuzzParse node_parse
build_fuzzer sessiondag/ops FuzzParseScript ops_parse_script
build_fuzzer sessiondag/props FuzzAdapterRoundTrip props_adapter_round_trip
build_fuzzer sessiondag/props FuzzSessionOps props_session_ops
build_fuzzer sessiondag/checker/robust FuzzAggregate robust_aggregate
build_fuzzer sessiondag/checker/robust FuzzOpenSession robust_open_session
