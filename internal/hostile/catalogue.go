package hostile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"swapbay/internal/bombs"
	"swapbay/modules/health"
	"swapbay/modules/packs"
)

// The hostile catalogue (issue 34): requests meant to exhaust a 1 GB VPS, each sent to a real
// `swapbay serve` child process (GOMEMLIMIT as on such a machine), whose resident memory is read
// from /proc/<pid>/status around the case. The test (catalogue_test.go) holds each case to
// the budget; internal/bench (-only hostile) reports the worst.
const (
	// SingleBudgetMB is the most one request may raise the server's RSS (VmHWM over the VmRSS
	// before it).
	SingleBudgetMB = 150
	// ConcurrentBudgetMB is the most the server's RSS may reach while 8 hostile requests run at once.
	ConcurrentBudgetMB = 512
	// Concurrent is how many hostile requests the concurrent case sends at once.
	Concurrent = 8
	// ProbeBudget is the longest an ordinary route may take to answer meanwhile.
	ProbeBudget = 2 * time.Second
	// MemLimit is the server's GOMEMLIMIT: what it sets itself on a 1 GB VPS.
	MemLimit = "512MiB"
)

const password = "hostile-test-secret"

// Result is one case: what the server's resident memory did, and what was wrong.
type Result struct {
	Name     string
	BaseMB   float64 // VmRSS before the case
	PeakMB   float64 // VmHWM during it
	GrowthMB float64 // PeakMB − BaseMB
	Note     string  // answers seen, probe times
	Problem  string  // an unexpected answer or a budget exceeded ("" when the case holds)
	// Concurrent marks the case of Concurrent requests at once (held to ConcurrentBudgetMB).
	Concurrent bool
}

// Server is one `swapbay serve` child on a copy of the seeded data dir.
type Server struct {
	Base    string
	cmd     *exec.Cmd
	exited  chan struct{}
	log     bytes.Buffer
	Driver  string // an approved driver's session cookie
	Pending string // a pending driver's (just registered) session cookie
	Master  string // the master admin's session cookie
	n       int    // registrations so far
}

var client = &http.Client{Timeout: 2 * time.Minute}

// Seed makes a data dir with the master admin and an approved driver (the CLI, as an operator would).
func Seed(bin, dir string) error {
	for _, u := range []struct{ email, role string }{{"master@hostile.test", "master_admin"}, {"driver@hostile.test", "driver"}} {
		out, err := exec.Command(bin, "user", "create", "--dir="+dir, "--email="+u.email, "--password="+password,
			"--role="+u.role, "--first=Hostile", "--last=Test").CombinedOutput()
		if err != nil {
			return fmt.Errorf("user create: %v %s", err, out)
		}
	}
	return nil
}

// Start copies the seeded dir into work and serves it.
func Start(bin, seed, work string) (*Server, error) {
	dir := filepath.Join(work, "pb_data")
	if err := copyDir(seed, dir); err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	s := &Server{Base: "http://" + addr, exited: make(chan struct{})}
	s.cmd = exec.Command(bin, "serve", "--http="+addr, "--dir="+dir)
	s.cmd.Env = append(os.Environ(), "GOMEMLIMIT="+MemLimit)
	s.cmd.Stdout, s.cmd.Stderr = &s.log, &s.log
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	for deadline := time.Now().Add(time.Minute); ; {
		select {
		case <-s.exited:
			return nil, fmt.Errorf("the server exited: %s", s.log.String())
		default:
		}
		if res, err := http.Get(s.Base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("the server did not answer /api/health")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s.Driver, err = s.login("driver@hostile.test"); err != nil {
		s.Stop()
		return nil, err
	}
	if s.Master, err = s.login("master@hostile.test"); err != nil {
		s.Stop()
		return nil, err
	}
	if s.Pending, err = s.register(Signature()); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Stop ends the server.
func (s *Server) Stop() {
	_ = s.cmd.Process.Kill()
	<-s.exited
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// memory returns the server's VmRSS and VmHWM in MB.
func (s *Server) memory() (rss, hwm float64) {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb / 1024
		case "VmHWM:":
			hwm = kb / 1024
		}
	}
	return rss, hwm
}

// resetPeak starts VmHWM again from the current RSS.
func (s *Server) resetPeak() error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", s.cmd.Process.Pid), []byte("5"), 0)
}

// Do sends one request (cookie may be "") and returns the status and body.
func (s *Server) Do(method, path, cookie, contentType string, body []byte) (int, string) {
	req, _ := http.NewRequest(method, s.Base+path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if strings.HasPrefix(path, "/api/login") || strings.HasPrefix(path, "/api/register") {
		for _, c := range res.Cookies() {
			if c.Value != "" {
				return res.StatusCode, c.Name + "=" + c.Value
			}
		}
	}
	return res.StatusCode, string(b)
}

func (s *Server) login(email string) (string, error) {
	st, cookie := s.Do("POST", "/api/login", "", "application/json", []byte(fmt.Sprintf(`{"email":%q,"password":%q}`, email, password)))
	if st != 200 {
		return "", fmt.Errorf("login %s: %d %s", email, st, cookie)
	}
	return cookie, nil
}

// registerBody is a registration of a new guest with sig as the drawn signature.
func (s *Server) registerBody(sig []byte) []byte {
	s.n++
	b, _ := json.Marshal(map[string]any{"email": fmt.Sprintf("guest%d-%d@hostile.test", s.n, time.Now().UnixNano()), "password": password,
		"firstName": "Guest", "lastName": "Hostile", "acceptedTerms": true, "signatureData": DataURL(sig)})
	return b
}

func (s *Server) register(sig []byte) (string, error) {
	st, cookie := s.Do("POST", "/api/register", "", "application/json", s.registerBody(sig))
	if st != 200 {
		return "", fmt.Errorf("register: %d %s", st, cookie)
	}
	return cookie, nil
}

// upload PUTs img to a fresh upload URL of the driver and returns the status, the body and the URL.
func (s *Server) upload(img []byte) (int, string, string) {
	st, body := s.Do("POST", "/api/objects/upload", s.Driver, "application/json", []byte(`{}`))
	if st != 200 {
		return st, body, ""
	}
	var u struct{ UploadURL string }
	_ = json.Unmarshal([]byte(body), &u)
	st, body = s.Do("PUT", strings.TrimPrefix(u.UploadURL, s.Base), s.Driver, "application/octet-stream", img)
	return st, body, u.UploadURL
}

// photo uploads and claims img, returning the photo's id.
func (s *Server) photo(img []byte) (string, error) {
	st, body, url := s.upload(img)
	if st != 200 {
		return "", fmt.Errorf("upload: %d %s", st, body)
	}
	claim, _ := json.Marshal(map[string]any{"filename": "p.img", "url": strings.SplitN(url, "?", 2)[0]})
	st, body = s.Do("POST", "/api/photos/upload", s.Driver, "application/json", claim)
	if st != 200 {
		return "", fmt.Errorf("claim: %d %s", st, body)
	}
	var p struct{ Id string }
	_ = json.Unmarshal([]byte(body), &p)
	return p.Id, nil
}

// DataURL is img as a PNG data URL.
func DataURL(img []byte) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(img)
}

// Signature is an ordinary drawn signature (450×120, a stroke).
func Signature() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 450, 120))
	for x := 20; x < 430; x++ {
		img.Set(x, 60+(x%23), color.Black)
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// lazy makes a bomb once (some take seconds to compress).
func lazy(f func() []byte) func() []byte {
	var once sync.Once
	var b []byte
	return func() []byte { once.Do(func() { b = f() }); return b }
}

var (
	sig8000    = lazy(func() []byte { return bombs.PNG(8000, 8000, 8, bombs.Gray, false) })
	png16      = lazy(func() []byte { return bombs.PNG(7000, 7000, 16, bombs.RGBA, false) })
	pngGray64  = lazy(func() []byte { return bombs.PNG(8000, 8000, 8, bombs.Gray, false) })
	palette49  = lazy(func() []byte { return bombs.PNG(7000, 7000, 8, bombs.Palette, false) })
	rgba24     = lazy(func() []byte { return bombs.PNG(5000, 5000, 8, bombs.RGBA, false) })
	jpeg49     = lazy(func() []byte { return bombs.JPEG(7000, 7000) })
	webpLossy  = lazy(func() []byte { return bombs.WebPLossy(7000, 7000) })
	webpHuge   = lazy(func() []byte { return bombs.WebPLossy(16383, 16383) })
	webpLosles = lazy(func() []byte { return bombs.WebPLossless(7000, 7000) })
)

// Case is one hostile request (or burst): prepare runs before the measurement, run during it
// and says what was wrong ("" when the answers are the expected ones).
type Case struct {
	Name       string
	concurrent bool // held to ConcurrentBudgetMB of RSS, not SingleBudgetMB of growth
	prepare    func(s *Server) (any, error)
	run        func(s *Server, prepared any) (note, problem string)
}

// expect checks one answer.
func expect(what string, got int, body string, want int) string {
	if got != want {
		return fmt.Sprintf("%s: %d, want %d (%s)", what, got, want, truncate(body))
	}
	return ""
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func uploadCase(name string, img func() []byte, want int) Case {
	return Case{Name: name, run: func(s *Server, _ any) (string, string) {
		st, body, _ := s.upload(img())
		return fmt.Sprintf("%d", st), expect("PUT", st, body, want)
	}}
}

func thumbCase(name string, img func() []byte) Case {
	return Case{Name: name,
		prepare: func(s *Server) (any, error) { return s.photo(img()) },
		run: func(s *Server, id any) (string, string) {
			st, body := s.Do("GET", "/api/photos/"+id.(string)+"/image?thumb=1", s.Driver, "", nil)
			return fmt.Sprintf("%d", st), expect("thumb", st, body, 200)
		}}
}

// Catalogue is every case, in order.
func Catalogue() []Case {
	return []Case{
		{Name: "register: 8000×8000 zero-pixel PNG signature", run: func(s *Server, _ any) (string, string) {
			st, body := s.Do("POST", "/api/register", "", "application/json", s.registerBody(sig8000()))
			return fmt.Sprintf("%d", st), expect("register", st, body, 400)
		}},
		{Name: "terms sign: 8000×8000 zero-pixel PNG signature", run: func(s *Server, _ any) (string, string) {
			b, _ := json.Marshal(map[string]any{"acceptedTerms": true, "signatureData": DataURL(sig8000())})
			st, body := s.Do("POST", "/api/terms/sign", s.Pending, "application/json", b)
			return fmt.Sprintf("%d", st), expect("sign", st, body, 400)
		}},
		uploadCase("photo: 7000×7000 16-bit PNG", png16, 415),
		uploadCase("photo: 8000×8000 PNG bomb (64 MP)", pngGray64, 413),
		uploadCase("photo: 7000×7000 palette PNG bomb (accepted)", palette49, 200),
		uploadCase("photo: 5000×5000 RGBA PNG bomb (accepted)", rgba24, 200),
		uploadCase("photo: 7000×7000 JPEG bomb (accepted)", jpeg49, 200),
		uploadCase("photo: 7000×7000 lossy WebP bomb (accepted)", webpLossy, 200),
		uploadCase("photo: 16383×16383 lossy WebP bomb", webpHuge, 413),
		uploadCase("photo: 7000×7000 lossless WebP bomb", webpLosles, 413),
		thumbCase("thumbnail: 7000×7000 palette PNG bomb", palette49),
		thumbCase("thumbnail: 5000×5000 RGBA PNG bomb", rgba24),
		thumbCase("thumbnail: 7000×7000 JPEG bomb", jpeg49),
		thumbCase("thumbnail: 7000×7000 lossy WebP bomb", webpLossy),
		{Name: "terms sign: 12 signs at once", run: func(s *Server, _ any) (string, string) {
			b, _ := json.Marshal(map[string]any{"acceptedTerms": true, "signatureData": DataURL(Signature())})
			by := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for i := 0; i < 12; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st, _ := s.Do("POST", "/api/terms/sign", s.Pending, "application/json", b)
					mu.Lock()
					by[st]++
					mu.Unlock()
				}()
			}
			wg.Wait()
			note := fmt.Sprintf("%d signed, %d refused 429", by[200], by[429])
			if by[200] > 3 || by[200]+by[429] != 12 {
				return note, "more than 3 signs stored, or other answers: " + fmt.Sprint(by)
			}
			return note, ""
		}},
		labelsCase(),
		labelsBurstCase(),
		readingsCase("readings: 10 rows of 100 KB cells (preview)", readingsCells, 200),
		readingsCase(fmt.Sprintf("readings: %d rows of unknown serials (preview)", health.MaxReadingRows), readingsRows, 200),
		readingsCase("readings: a body over health.MaxReadingsBody", readingsOver, 413),
		concurrentCase(),
	}
}

// The readings import's hostile files (issue 46): each is previewed (dryRun), so nothing is
// written; every row is checked and named, the body is bounded.
var (
	readingsCells = lazy(func() []byte {
		var sb strings.Builder
		sb.WriteString("serial,time,source,faults\n")
		for range 10 {
			sb.WriteString("SWB-000001,2026-01-01T00:00:00Z,bms," + strings.Repeat("x", 100<<10) + "\n")
		}
		return readingsBody(sb.String())
	})
	readingsRows = lazy(func() []byte {
		var sb strings.Builder
		sb.WriteString("serial,time,source,soh\n")
		for i := range health.MaxReadingRows {
			fmt.Fprintf(&sb, "NOPE-%05d,2026-01-01 10:00,bms,NaN\n", i)
		}
		return readingsBody(sb.String())
	})
	readingsOver = lazy(func() []byte { return readingsBody(strings.Repeat("x", health.MaxReadingsBody+1)) })
)

func readingsBody(csv string) []byte {
	b, _ := json.Marshal(map[string]any{"csv": csv, "dryRun": true})
	return b
}

func readingsCase(name string, body func() []byte, want int) Case {
	return Case{Name: name, run: func(s *Server, _ any) (string, string) {
		st, answer := s.Do("POST", "/api/admin/packs/readings", s.Master, "application/json", body())
		return fmt.Sprintf("%d, %d bytes", st, len(answer)), expect("readings", st, answer, want)
	}}
}

// mintForLabels mints packs.MaxLabels packs as the master admin (one keyed mint) and answers
// the label sheet's address for all of them.
func mintForLabels(s *Server) (any, error) {
	req, _ := http.NewRequest("POST", s.Base+"/api/admin/packs/mint",
		strings.NewReader(fmt.Sprintf(`{"count":%d,"model":"S-48V 15Ah","lot":"L-HOSTILE"}`, packs.MaxLabels)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", s.Master)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("hostile-mint-%d", time.Now().UnixNano()))
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out struct {
		Packs []struct {
			Serial string `json:"serial"`
		} `json:"packs"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != 200 || len(out.Packs) != packs.MaxLabels {
		return nil, fmt.Errorf("mint: %d %v (%d packs)", res.StatusCode, err, len(out.Packs))
	}
	return "/api/admin/packs/labels?from=" + out.Packs[0].Serial + "&to=" + out.Packs[len(out.Packs)-1].Serial, nil
}

// labelsCase: the largest label sheet (packs.MaxLabels labels, ~65 MB while it renders).
func labelsCase() Case {
	return Case{Name: fmt.Sprintf("labels: a sheet of %d labels", packs.MaxLabels), prepare: mintForLabels,
		run: func(s *Server, url any) (string, string) {
			st, body := s.Do("GET", url.(string), s.Master, "", nil)
			return fmt.Sprintf("%d, %d bytes", st, len(body)), expect("labels", st, body, 200)
		}}
}

// labelsBurstCase: 12 of the largest sheets asked at once by one admin: the rate limit refuses
// those over packs.LabelsLimit, the PDF queue renders the rest one at a time (held to the
// concurrent budget), and the ordinary routes keep answering.
func labelsBurstCase() Case {
	return Case{Name: fmt.Sprintf("labels: 12 sheets of %d at once", packs.MaxLabels), concurrent: true, prepare: mintForLabels,
		run: func(s *Server, url any) (string, string) {
			by := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for range 12 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st, _ := s.Do("GET", url.(string), s.Master, "", nil)
					mu.Lock()
					by[st]++
					mu.Unlock()
				}()
			}
			t0 := time.Now()
			st, body := s.Do("GET", "/api/state", s.Driver, "", nil)
			took := time.Since(t0)
			wg.Wait()
			note := fmt.Sprintf("%d sheets, %d refused 429; /api/state meanwhile %s", by[200], by[429], took.Round(time.Millisecond))
			switch {
			case by[200] > packs.LabelsLimit.PerAccount.N || by[200]+by[429] != 12:
				return note, "answers: " + fmt.Sprint(by)
			case st != 200 || took > ProbeBudget:
				return note, fmt.Sprintf("/api/state meanwhile: %d in %s (%s)", st, took, truncate(body))
			}
			return note, ""
		}}
}

// concurrentCase sends Concurrent hostile requests at once (signature bombs, JPEG bombs,
// thumbnails of bombs) while probing ordinary routes: each probe must answer 200 within
// ProbeBudget, and the RSS must stay under ConcurrentBudgetMB.
func concurrentCase() Case {
	return Case{Name: fmt.Sprintf("%d hostile requests at once", Concurrent), concurrent: true,
		prepare: func(s *Server) (any, error) {
			ids := []string{}
			for _, img := range [][]byte{jpeg49(), palette49()} {
				id, err := s.photo(img)
				if err != nil {
					return nil, err
				}
				ids = append(ids, id)
			}
			return ids, nil
		},
		run: func(s *Server, prepared any) (string, string) {
			ids := prepared.([]string)
			sign, _ := json.Marshal(map[string]any{"acceptedTerms": true, "signatureData": DataURL(sig8000())})
			jobs := []func() int{
				func() int {
					st, _ := s.Do("POST", "/api/register", "", "application/json", s.registerBody(sig8000()))
					return st
				},
				func() int { st, _ := s.Do("POST", "/api/terms/sign", s.Pending, "application/json", sign); return st },
				func() int { st, _, _ := s.upload(jpeg49()); return st },
				func() int { st, _, _ := s.upload(jpeg49()); return st },
				func() int { st, _, _ := s.upload(png16()); return st },
				func() int { st, _, _ := s.upload(rgba24()); return st },
				func() int { st, _ := s.Do("GET", "/api/photos/"+ids[0]+"/image?thumb=1", s.Driver, "", nil); return st },
				func() int { st, _ := s.Do("GET", "/api/photos/"+ids[1]+"/image?thumb=1", s.Driver, "", nil); return st },
			}
			var wg sync.WaitGroup
			statuses := make([]int, len(jobs))
			for i, job := range jobs {
				wg.Add(1)
				go func() { defer wg.Done(); statuses[i] = job() }()
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			var probes []time.Duration
			problem := ""
			for running := true; running; {
				select {
				case <-done:
					running = false
				default:
				}
				for _, p := range []string{"/api/health", "/api/state"} {
					t0 := time.Now()
					st, body := s.Do("GET", p, s.Driver, "", nil)
					took := time.Since(t0)
					probes = append(probes, took)
					if st != 200 && problem == "" {
						problem = fmt.Sprintf("%s answered %d meanwhile (%s)", p, st, truncate(body))
					}
					if took > ProbeBudget && problem == "" {
						problem = fmt.Sprintf("%s took %s meanwhile (budget %s)", p, took.Round(time.Millisecond), ProbeBudget)
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			sort.Slice(probes, func(i, j int) bool { return probes[i] < probes[j] })
			note := fmt.Sprintf("answers %v; %d probes of /api/health and /api/state, slowest %s", statuses, len(probes),
				probes[len(probes)-1].Round(time.Millisecond))
			for _, st := range statuses {
				if st == 0 || st >= 500 {
					problem = fmt.Sprintf("a hostile request failed: %v", statuses)
				}
			}
			return note, problem
		}}
}

// Warm is what a server does before a case is measured: the ordinary routes, a small photo
// and its thumbnail, so the base includes the working set of normal use.
func (s *Server) warm() error {
	if st, body := s.Do("GET", "/api/state", s.Driver, "", nil); st != 200 {
		return fmt.Errorf("/api/state: %d %s", st, body)
	}
	id, err := s.photo(bombs.JPEG(640, 480))
	if err != nil {
		return err
	}
	if st, body := s.Do("GET", "/api/photos/"+id+"/image?thumb=1", s.Driver, "", nil); st != 200 {
		return fmt.Errorf("thumb: %d %s", st, body)
	}
	time.Sleep(200 * time.Millisecond) // the registration's PDF
	return nil
}

// Run runs c on a fresh server (a copy of seed under work) and measures it.
func Run(bin, seed, work string, c Case) (Result, error) {
	res := Result{Name: c.Name, Concurrent: c.concurrent}
	s, err := Start(bin, seed, work)
	if err != nil {
		return res, err
	}
	defer s.Stop()
	if err := s.warm(); err != nil {
		return res, err
	}
	var prepared any
	if c.prepare != nil {
		if prepared, err = c.prepare(s); err != nil {
			return res, fmt.Errorf("prepare: %w", err)
		}
	}
	if err := s.resetPeak(); err != nil {
		return res, err
	}
	res.BaseMB, _ = s.memory()
	res.Note, res.Problem = c.run(s, prepared)
	_, res.PeakMB = s.memory()
	res.GrowthMB = res.PeakMB - res.BaseMB
	select {
	case <-s.exited:
		res.Problem = "the server died: " + truncate(s.log.String())
	default:
	}
	if c.concurrent {
		if res.PeakMB > ConcurrentBudgetMB && res.Problem == "" {
			res.Problem = fmt.Sprintf("RSS reached %.0f MB (budget %d MB)", res.PeakMB, ConcurrentBudgetMB)
		}
	} else if res.GrowthMB > SingleBudgetMB && res.Problem == "" {
		res.Problem = fmt.Sprintf("RSS grew %.0f MB (budget %d MB)", res.GrowthMB, SingleBudgetMB)
	}
	return res, nil
}

// RunAll seeds a data dir under work with bin and runs every case, each on its own server.
func RunAll(bin, work string, logf func(string, ...any)) ([]Result, error) {
	seed := filepath.Join(work, "seed")
	if err := Seed(bin, seed); err != nil {
		return nil, err
	}
	var out []Result
	for i, c := range Catalogue() {
		r, err := Run(bin, seed, filepath.Join(work, fmt.Sprintf("case%02d", i)), c)
		if err != nil {
			return out, fmt.Errorf("%s: %w", c.Name, err)
		}
		if logf != nil {
			logf("%-52s base %4.0f MB  peak %4.0f MB  growth %4.0f MB  %s %s", r.Name, r.BaseMB, r.PeakMB, r.GrowthMB, r.Note, r.Problem)
		}
		out = append(out, r)
	}
	return out, nil
}
