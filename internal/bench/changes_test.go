package main

import (
	"strings"
	"testing"
)

func TestChangesSectionPairsRowsBySectionAndName(t *testing.T) {
	prev := "## Aims\n\n| aim | figure | |\n|---|---|---|\n| writes ≥ 50% | 21% | **not met** |\n| flat | 1.1× | met |\n"
	now := "## Aims\n\n| aim | figure | |\n|---|---|---|\n| writes ≥ 50% | 15% | **not met** |\n| flat | 1.1× | met |\n| new | 3 | met |\n"
	got := changesSection(prev, now)
	if !strings.Contains(got, "| Aims | writes ≥ 50% | figure: 21% → 15% |") {
		t.Fatalf("changes:\n%s", got)
	}
	if strings.Contains(got, "| flat |") || strings.Contains(got, "| new |") {
		t.Fatalf("unchanged or new rows listed:\n%s", got)
	}
	dup := "## Aims\n\n| aim | figure |\n|---|---|\n| a | 1 |\n| same | 2 |\n| b | 3 |\n| same | 4 |\n"
	dup2 := strings.Replace(strings.Replace(dup, "| 2 |", "| 20 |", 1), "| 4 |", "| 40 |", 1)
	if got := changesSection(dup, dup2); !strings.Contains(got, "figure: 2 → 20") || !strings.Contains(got, "figure: 4 → 40") {
		t.Fatalf("rows named alike paired wrongly:\n%s", got)
	}
	if changesSection("", now) != "" {
		t.Fatal("no previous report, yet a section")
	}
}
