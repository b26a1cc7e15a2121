// Package hqdrill runs head office whole (issue 45, docs/hq.md): a city binary serving and
// replicating to a directory, and `swapbay hq serve` following it, each its own process.
package hqdrill

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"swapbay/internal/testbin"
	"swapbay/modules/hq"
	"swapbay/modules/hq/follow"
)

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// server is a swapbay process.
type server struct {
	cmd  *exec.Cmd
	base string
	out  *bytes.Buffer
	done chan error
}

func start(t *testing.T, bin string, args ...string) *server {
	t.Helper()
	addr := freePort(t)
	s := &server{base: "http://" + addr, out: &bytes.Buffer{}, done: make(chan error, 1)}
	s.cmd = exec.Command(bin, append(args, "--http="+addr)...)
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() { s.stop(t) })
	deadline := time.Now().Add(time.Minute)
	for {
		if res, err := http.Get(s.base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return s
			}
		}
		select {
		case err := <-s.done:
			t.Fatalf("%v exited: %v\n%s", args, err, s.out)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%v did not answer in a minute:\n%s", args, s.out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits up to 15 s (then kills): it answers how long the stop took.
func (s *server) stop(t *testing.T) time.Duration {
	if s.cmd.ProcessState != nil || s.cmd.Process == nil {
		return 0
	}
	began := time.Now()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err
		return time.Since(began)
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		t.Errorf("the server did not stop within 15 s of SIGTERM:\n%s", s.out)
		return time.Since(began)
	}
}

func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func call(t *testing.T, method, url, token, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	if method != http.MethodGet {
		req.Header.Set("Idempotency-Key", fmt.Sprintf("drill-%d", time.Now().UnixNano()))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		_ = json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %s: %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A city serves and replicates; head office, another process, follows it: a city added on
// /api/hq/cities is following within seconds, a write in the city reaches HQ's copy, HQ's
// process holds no file of the city's data dir open, SIGTERM stops HQ (followers included) at
// once, and HQ started again resumes its copy without a full restore.
func TestHQFollowsACityProcess(t *testing.T) {
	bin, err := testbin.Path(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cityDir, hqDir := filepath.Join(t.TempDir(), "city"), filepath.Join(t.TempDir(), "hq")
	replica := filepath.Join(t.TempDir(), "replica")
	start(t, bin, "serve", "--dir="+cityDir, "--replicate=file://"+replica)

	run(t, bin, "hq", "user", "create", "--dir="+hqDir, "--email=hq@drill.test", "--password=long-secret-1", "--role=hq_admin")
	h := start(t, bin, "hq", "serve", "--dir="+hqDir)
	var auth struct{ Token string }
	if code := call(t, "POST", h.base+"/api/collections/users/auth-with-password", "", `{"identity":"hq@drill.test","password":"long-secret-1"}`, &auth); code != 200 || auth.Token == "" {
		t.Fatalf("HQ login: %d", code)
	}
	var c hq.City
	body := `{"name":"Drill","timeZone":"Europe/Paris","currency":"EUR","replicaUrl":"file://` + replica + `","address":"https://drill.example","token":"drill-token"}`
	if code := call(t, "POST", h.base+"/api/hq/cities", auth.Token, body, &c); code != 200 {
		t.Fatalf("add the city: %d", code)
	}
	following := func() follow.Status {
		var list []hq.City
		if call(t, "GET", h.base+"/api/hq/cities", auth.Token, "", &list) != 200 || len(list) != 1 {
			return follow.Status{}
		}
		return list[0].Copy
	}
	waitFor(t, 30*time.Second, "the city's copy following", func() bool { return following().State == follow.StateFollowing })

	copyPath := filepath.Join(hqDir, hq.CopiesDir, c.ID, follow.CopyName)
	began := time.Now()
	run(t, bin, "user", "create", "--dir="+cityDir, "--email=driver@drill.test", "--password=secret123", "--role=driver", "--first=Dee", "--last=Drill")
	waitFor(t, 30*time.Second, "the city's write in HQ's copy", func() bool {
		db, err := follow.Open(copyPath)
		if err != nil {
			return false
		}
		defer db.Close()
		var n int
		return db.QueryRow("SELECT count(*) FROM users WHERE email = 'driver@drill.test'").Scan(&n) == nil && n == 1
	})
	t.Logf("a city write (user create, ~0.4 s itself) reached HQ's copy in %s", time.Since(began).Round(10*time.Millisecond))

	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", h.cmd.Process.Pid))
	if err == nil {
		sawCopy := false
		for _, fd := range fds {
			p, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", h.cmd.Process.Pid, fd.Name()))
			if strings.HasPrefix(p, cityDir) {
				t.Errorf("HQ holds the city's %s open", p)
			}
			sawCopy = sawCopy || strings.HasPrefix(p, copyPath)
		}
		if !sawCopy {
			t.Error("HQ's copy is not among its open files: the check sees nothing")
		}
	}

	if took := h.stop(t); took > 5*time.Second {
		t.Errorf("HQ took %s to stop", took)
	}
	h = start(t, bin, "hq", "serve", "--dir="+hqDir) // following() now asks the new process
	waitFor(t, 30*time.Second, "following again after the restart", func() bool {
		st := following()
		return st.State == follow.StateFollowing && st.CopyTXID > 0
	})
	if st := following(); st.Restores != 0 {
		t.Fatalf("the restart restored in full %d times, want 0 (resumed): %+v", st.Restores, st)
	}
}
