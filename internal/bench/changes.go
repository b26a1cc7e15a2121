package main

import (
	"fmt"
	"strings"
)

// changesSection compares this run's report with the previous one (the BENCHMARKS.md it
// replaces): every table row whose first cell names the same measurement in both, with the
// previous and the new cells side by side where they differ.
func changesSection(previous, current string) string {
	if previous == "" {
		return ""
	}
	old := tableRows(previous)
	var b strings.Builder
	b.WriteString("\n## Change from the previous run\n\nEach row: the previous report's figure → this run's, for the rows both reports have.\n\n")
	b.WriteString("| section | row | previous → now |\n|---|---|---|\n")
	n := 0
	for _, r := range orderedRows(current) {
		prev, ok := old[r.key]
		if !ok {
			continue
		}
		var diffs []string
		for i := 1; i < len(r.cells) && i < len(prev.cells) && i < len(r.header); i++ {
			if prev.cells[i] != r.cells[i] {
				diffs = append(diffs, fmt.Sprintf("%s: %s → %s", r.header[i], prev.cells[i], r.cells[i]))
			}
		}
		if len(diffs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.section, r.cells[0], strings.Join(diffs, "; "))
		n++
	}
	if n == 0 {
		return ""
	}
	return b.String()
}

type row struct {
	key, section string
	header       []string
	cells        []string
}

func tableRows(md string) map[string]row {
	out := map[string]row{}
	for _, r := range orderedRows(md) {
		out[r.key] = r
	}
	return out
}

// orderedRows reads every Markdown table row under its "## " section with the table's header.
func orderedRows(md string) []row {
	var out []row
	section := ""
	var header []string
	seen := map[string]int{} // rows named alike in one section ("same, cache off") pair by order
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "## "):
			section, header = strings.TrimPrefix(line, "## "), nil
		case strings.HasPrefix(line, "|") && strings.HasSuffix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			if header == nil {
				header = cells
				continue
			}
			if strings.HasPrefix(cells[0], "---") || strings.HasPrefix(cells[0], ":--") || cells[0] == "" {
				continue
			}
			if section == "Change from the previous run" || strings.HasPrefix(section, "UI bundle") {
				continue // file names change every build
			}
			key := section + "\x00" + cells[0]
			seen[key]++
			if n := seen[key]; n > 1 {
				key += fmt.Sprintf("\x00%d", n)
			}
			out = append(out, row{key: key, section: section, header: header, cells: cells})
		default:
			if line == "" {
				header = nil
			}
		}
	}
	return out
}
