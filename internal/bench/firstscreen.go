package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// firstScreen is e2e/scripts/lcp.mjs's answer: per role, Largest Contentful Paint and the
// JavaScript over the wire on a cold cache under phone-network emulation, and the scripts a
// repeat visit still fetched.
type firstScreen struct {
	Network string `json:"network"`
	Results []struct {
		Role    string  `json:"role"`
		Path    string  `json:"path"`
		LCPMs   int     `json:"lcpMs"`
		JSKB    float64 `json:"jsKB"`
		Scripts int     `json:"scripts"`
		Repeat  struct {
			JSFromNetwork int     `json:"jsFromNetwork"`
			JSKB          float64 `json:"jsKB"`
		} `json:"repeat"`
	} `json:"results"`
	Err string `json:"-"`
}

// measureFirstScreen runs lcp.mjs (Debian's Chromium through Playwright) against s as a
// guest, the data set's first driver and first admin.
func (s *server) measureFirstScreen() firstScreen {
	var fs firstScreen
	if _, err := os.Stat("e2e/node_modules/@playwright/test"); err != nil {
		fs.Err = "e2e dependencies missing (make e2e-deps)"
		return fs
	}
	cmd := exec.Command("node", "scripts/lcp.mjs", s.base, s.ds.drivers[0].Email(), s.ds.admins[0].Email(), benchPassword)
	cmd.Dir = "e2e"
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fs.Err = "lcp.mjs: " + err.Error()
		return fs
	}
	if err := json.Unmarshal(out, &fs); err != nil {
		fs.Err = "lcp.mjs answer: " + err.Error()
	}
	return fs
}

// firstScreenSection is the report's section for fs (aims: sign-in JS ≤ 150 KB, LCP ≤ 2.5 s
// for each role, a repeat visit loads no JS from the network).
func firstScreenSection(fs firstScreen) string {
	var b strings.Builder
	b.WriteString("\n## First screen on a phone network\n\n")
	if fs.Err != "" {
		fmt.Fprintf(&b, "Not measured: %s.\n", fs.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "Debian's Chromium (Playwright), CDP network emulation: %s. LCP from the\n"+
		"`largest-contentful-paint` entries; JS = encoded bytes of every script response (headers\n"+
		"included). Aims: sign-in JS ≤ 150 KB; LCP ≤ 2.5 s for each role; a repeat visit fetches no JS.\n\n", fs.Network)
	b.WriteString("| role | path | LCP | JS over the wire | scripts | repeat visit: scripts from the network |\n|---|---|---:|---:|---:|---:|\n")
	for _, r := range fs.Results {
		fmt.Fprintf(&b, "| %s | %s | %s | %.1f KB | %d | %d |\n", r.Role, r.Path,
			(time.Duration(r.LCPMs) * time.Millisecond).String(), r.JSKB, r.Scripts, r.Repeat.JSFromNetwork)
	}
	return b.String()
}
