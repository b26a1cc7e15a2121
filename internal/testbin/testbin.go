// Package testbin hands the swapbay binary to the tests that run it whole (the SIGKILL crash
// test, the replication drill, the hostile catalogue, the bench): `make test` builds bin/swapbay
// once and names it in SWAPBAY_BIN, so no test links its own; run alone (`go test ./internal/drill`),
// a test builds its own as before.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Env is the variable that names a built swapbay binary (an absolute path, or one relative to
// the module root; the Makefile sets it to bin/swapbay).
const Env = "SWAPBAY_BIN"

// Path returns the swapbay binary to run: $SWAPBAY_BIN when set, else one newly built into dir
// (a test's t.TempDir()).
func Path(dir string) (string, error) {
	if p := os.Getenv(Env); p != "" {
		return resolve(p)
	}
	return Build(dir)
}

// resolve makes p absolute (a relative path is taken from the module root, where the Makefile
// runs) and checks that it is an executable file.
func resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		root, err := moduleRoot()
		if err != nil {
			return "", err
		}
		p = filepath.Join(root, p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", fmt.Errorf("%s=%s: %w", Env, p, err)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s=%s is not an executable file", Env, p)
	}
	return p, nil
}

// moduleRoot is the directory of the go.mod above the working directory (a test runs in its
// package's directory).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Build links swapbay into dir and returns its path (always a new build, whatever $SWAPBAY_BIN says).
func Build(dir string) (string, error) {
	out := filepath.Join(dir, "swapbay")
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, "swapbay/pb_app")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build: %v\n%s", err, b)
	}
	return out, nil
}
