package main

import (
	"bufio"
	"bytes"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// memoryShare is the part of the machine's memory the Go heap aims to stay within when
// GOMEMLIMIT is not set: half, so a 1 GB VPS leaves room for SQLite's page cache, the
// kernel and the proxy in front (README "Running in production").
const memoryShare = 0.5

// setMemoryLimit sets the Go runtime's soft memory limit from the machine (the smaller of
// MemTotal and the cgroup's memory.max) unless the environment sets GOMEMLIMIT, which the
// runtime has then applied already. It returns the limit in bytes (0: left as it was).
func setMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	total := machineMemory(readFile("/proc/meminfo"), readFile("/sys/fs/cgroup/memory.max"))
	if total <= 0 {
		return 0
	}
	limit := int64(float64(total) * memoryShare)
	debug.SetMemoryLimit(limit)
	return limit
}

func readFile(path string) []byte {
	b, _ := os.ReadFile(path)
	return b
}

// machineMemory is the memory this process may use, in bytes: MemTotal from meminfo, or the
// cgroup's limit (memory.max, "max" for none) when that is smaller; 0 when neither is known.
func machineMemory(meminfo, cgroupMax []byte) int64 {
	var total int64
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				total = kb << 10
			}
		}
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(string(cgroupMax)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
		total = n
	}
	return total
}
