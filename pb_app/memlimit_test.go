package main

import "testing"

func TestMachineMemory(t *testing.T) {
	meminfo := []byte("MemTotal:        1004096 kB\nMemFree:          500000 kB\n")
	for _, tc := range []struct {
		name    string
		meminfo []byte
		cgroup  string
		want    int64
	}{
		{"a 1 GB VPS", meminfo, "", 1004096 << 10},
		{"no cgroup limit", meminfo, "max\n", 1004096 << 10},
		{"a smaller container", meminfo, "268435456\n", 256 << 20},
		{"a larger cgroup limit", meminfo, "8589934592\n", 1004096 << 10},
		{"nothing known", nil, "", 0},
	} {
		if got := machineMemory(tc.meminfo, []byte(tc.cgroup)); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestGOMEMLIMITFromTheEnvironmentWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "300MiB")
	if got := setMemoryLimit(); got != 0 {
		t.Fatalf("set %d over the environment's GOMEMLIMIT", got)
	}
}
