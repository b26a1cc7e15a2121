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
	if changesSection("", now) != "" {
		t.Fatal("no previous report, yet a section")
	}
}
