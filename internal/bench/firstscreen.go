package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
		// Offline: the driver's third visit with the network off (DESIGN.md §12).
		Offline *struct {
			BytesFromNetwork int  `json:"bytesFromNetwork"`
			FiguresMs        int  `json:"figuresMs"`
			Banner           bool `json:"banner"`
			BannerMs         *int `json:"bannerMs"`
		} `json:"offline"`
	} `json:"results"`
	// Polls: the admin dashboard's weekly activity call, measured over HTTP after lcp.mjs.
	Polls []pollSize `json:"-"`
	// Round: one round of the admin dashboard's 60 s polls, then the same round unchanged.
	Round pollRound `json:"-"`
	Err   string    `json:"-"`
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
	fs.Polls = s.pollSizes()
	fs.Round = s.pollRound()
	return fs
}

// adminPolls are the calls the admin dashboard (home-admin.tsx) polls every 60 s.
var adminPolls = []string{"/api/state", "/api/admin/charging-sessions", "/api/admin/recent-activity",
	"/api/admin/weekly-activity?activities=none", "/api/admin/all-earnings", "/api/admin/core-team-earnings",
	"/api/admin/pay-rates"}

// pollRound is one round of adminPolls as a browser without the answers asks for them, then
// as one holding them (If-None-Match with each answer's ETag) while nothing changed.
type pollRound struct {
	Calls              int
	FirstGzip          int // answer bytes, gzipped as sent
	UnchangedBody      int
	UnchangedNotModify int // of Calls, answered 304
}

func (s *server) pollRound() pollRound {
	token := s.token(s.ds.admins[0])
	ask := func(call, etag string) (status, size int, tag string) {
		req, err := http.NewRequest(http.MethodGet, s.base+call, nil)
		check(err)
		req.Header.Set("Authorization", token)
		req.Header.Set("Accept-Encoding", "gzip")
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		check(err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, len(body), res.Header.Get("ETag")
	}
	r := pollRound{Calls: len(adminPolls)}
	for _, call := range adminPolls {
		_, size, tag := ask(call, "")
		r.FirstGzip += size
		status, again, _ := ask(call, tag)
		r.UnchangedBody += again
		if status == http.StatusNotModified {
			r.UnchangedNotModify++
		}
	}
	return r
}

// pollSize is one answer of a call the admin dashboard polls every 60 s: its bytes gzipped,
// as sent, and as JSON.
type pollSize struct {
	Call         string
	Gzip, Plain  int
	Status       int
	DriversShown int
}

// pollSizes asks, as the data set's first admin, for this week's activity in full (the spec's
// call: every driver's activity list) and as the dashboards poll it (the summary).
func (s *server) pollSizes() []pollSize {
	token := s.token(s.ds.admins[0])
	var out []pollSize
	for _, call := range []string{"/api/admin/weekly-activity", "/api/admin/weekly-activity?activities=none"} {
		p := pollSize{Call: call}
		req, err := http.NewRequest(http.MethodGet, s.base+call, nil)
		check(err)
		req.Header.Set("Authorization", token)
		req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport leaves the body compressed
		res, err := http.DefaultClient.Do(req)
		check(err)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		p.Status, p.Gzip = res.StatusCode, len(body)
		if res.Header.Get("Content-Encoding") == "gzip" {
			req.Header.Set("Accept-Encoding", "identity")
			res, err := http.DefaultClient.Do(req)
			check(err)
			plain, _ := io.ReadAll(res.Body)
			res.Body.Close()
			p.Plain = len(plain)
			var week struct {
				DriverBreakdown []json.RawMessage `json:"driverBreakdown"`
			}
			_ = json.Unmarshal(plain, &week)
			p.DriversShown = len(week.DriverBreakdown)
		} else {
			p.Plain = len(body)
		}
		out = append(out, p)
	}
	return out
}

// lcpAims are issue 28's aims at / on the phone network, per role (a guest at /auth keeps the
// earlier 2.5 s).
var lcpAims = map[string]time.Duration{"guest /": 1500 * time.Millisecond, "guest /auth": 2500 * time.Millisecond,
	"driver /": 1800 * time.Millisecond, "admin /": 2000 * time.Millisecond}

// firstScreenSection is the report's section for fs (aims: lcpAims, the guest's JS ≤ 150 KB,
// a repeat visit loads no JS from the network).
func firstScreenSection(fs firstScreen) string {
	var b strings.Builder
	b.WriteString("\n## First screen on a phone network\n\n")
	if fs.Err != "" {
		fmt.Fprintf(&b, "Not measured: %s.\n", fs.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "Debian's Chromium (Playwright), CDP network emulation: %s. LCP from the\n"+
		"`largest-contentful-paint` entries; JS = encoded bytes of every script response (headers\n"+
		"included). Aims (issue 28, at /): guest LCP ≤ 1.5 s with ≤ 150 KB of JS, driver ≤ 1.8 s, admin ≤ 2.0 s; a repeat\n"+
		"visit fetches no JS.\n\n", fs.Network)
	b.WriteString("| role | path | LCP | aim | JS over the wire | scripts | repeat visit: scripts from the network |\n|---|---|---:|---|---:|---:|---:|\n")
	for _, r := range fs.Results {
		lcp := time.Duration(r.LCPMs) * time.Millisecond
		aim := "—"
		if a, ok := lcpAims[r.Role+" "+r.Path]; ok {
			met := lcp <= a && (r.Role != "guest" || r.JSKB <= 150)
			aim = fmt.Sprintf("≤ %s: %s", a, map[bool]string{true: "met", false: "**not met**"}[met])
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %.1f KB | %d | %d |\n", r.Role, r.Path, lcp, aim, r.JSKB, r.Scripts, r.Repeat.JSFromNetwork)
	}
	for _, r := range fs.Results {
		if r.Offline == nil {
			continue
		}
		fmt.Fprintf(&b, "\nThe %s's repeat visit offline (the service worker answers, figures from the offline read cache;\n"+
			"aim: 0 bytes from the network): %d bytes from the network, the home's figures at %s, %s.\n",
			r.Role, r.Offline.BytesFromNetwork, (time.Duration(r.Offline.FiguresMs) * time.Millisecond).String(), bannerText(r.Offline.BannerMs))
	}
	if len(fs.Polls) > 0 {
		b.WriteString("\nThe admin dashboard polls this week's activity every 60 s. Its answer on this data set, as the\n" +
			"first admin, in full (the spec's call) and as the dashboards ask for it since the summary\n" +
			"(a card asks for its driver's activities when opened):\n\n" +
			"| call | status | drivers | gzipped | JSON |\n|---|---:|---:|---:|---:|\n")
		for _, p := range fs.Polls {
			fmt.Fprintf(&b, "| `%s` | %d | %d | %.1f KB | %.1f KB |\n", p.Call, p.Status, p.DriversShown, float64(p.Gzip)/1024, float64(p.Plain)/1024)
		}
	}
	if fs.Round.Calls > 0 {
		fmt.Fprintf(&b, "\nOne round of the admin dashboard's %d polls (every 60 s), answer bytes as sent: %.1f KB from a\n"+
			"browser without them; %.1f KB (%d of %d answered 304 Not Modified) from one holding them while\n"+
			"nothing changed (ETag revalidation).\n", fs.Round.Calls, float64(fs.Round.FirstGzip)/1024,
			float64(fs.Round.UnchangedBody)/1024, fs.Round.UnchangedNotModify, fs.Round.Calls)
	}
	return b.String()
}

// bannerText says when the offline banner ("Offline — figures from …") showed on the offline visit.
func bannerText(ms *int) string {
	if ms == nil {
		return "**no offline banner** within 10 s"
	}
	return fmt.Sprintf("the offline banner at %s", time.Duration(*ms)*time.Millisecond)
}
