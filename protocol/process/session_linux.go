package process

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killSession kills every process of the session sid (field 6 of
// /proc/PID/stat): the descendants of an implementation that left its
// process group (a job-control shell, a daemon that only calls setpgid)
// but kept its session. It walks /proc until a walk finds no live member,
// at most a few times, so that a member forking while it is killed is
// found too. A pid stays taken while a process of the session (or group)
// it names lives, so sid cannot name another session while members are
// left; the harness's own session is never sid (the implementation was
// started with setsid).
func killSession(sid int) {
	if own, _, ok := statSession(os.Getpid()); sid <= 1 || !ok || sid == own {
		return
	}
	for range 8 {
		members := sessionMembers(sid)
		if len(members) == 0 {
			return
		}
		for _, pid := range members {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// sessionMembers lists the live processes (not zombies) of session sid.
func sessionMembers(sid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		if s, state, ok := statSession(pid); ok && s == sid && state != 'Z' && state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// statSession reads the state (field 3) and the session (field 6) of
// /proc/PID/stat. The command name (field 2) is in parentheses and may
// hold spaces and parentheses itself: the fields after it follow its last
// ')'.
func statSession(pid int) (sid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:]) // state ppid pgrp session …
	if len(f) < 4 || len(f[0]) != 1 {
		return 0, 0, false
	}
	sid, err = strconv.Atoi(string(f[3]))
	return sid, f[0][0], err == nil
}
