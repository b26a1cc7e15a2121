package drill

import (
	"path/filepath"
	"testing"
	"time"
)

// N is the recovery point the test holds the drill to: every write acknowledged more than N
// before the SIGKILL is back after the restore. The bench measures the real figure (about 2 s:
// Litestream ships the WAL every second); N leaves room for a loaded CI machine.
const N = 5 * time.Second

// Against an in-process S3 server and against a directory: 8 clients write for 7 s (and until 100 writes are acknowledged), SIGKILL,
// the data dir deleted, `swapbay restore --from=<replica>` into a new dir. Every write
// acknowledged more than N before the kill is there exactly once, nothing is there twice,
// integrity ok, 0 corrections.
func TestDrillRestoresFromTheReplicaAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills the real binary")
	}
	bin, err := Build(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s3, err := NewS3()
	if err != nil {
		t.Fatal(err)
	}
	defer s3.Close()
	for _, c := range []struct{ name, url string }{
		{"s3", s3.URL("paris")},
		{"dir", "file://" + filepath.Join(t.TempDir(), "replica")},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(Options{Bin: bin, Replica: c.url, Work: t.TempDir(), Duration: 7 * time.Second, MinAcked: 100, Logf: t.Logf})
			if err != nil {
				t.Fatal(err)
			}
			if res.Refused > 0 {
				t.Errorf("%d writes refused while replicating; first: %s", res.Refused, res.FirstRefusal)
			}
			if len(res.Duplicates) > 0 {
				t.Errorf("%d keys restored more than once: %v", len(res.Duplicates), res.Duplicates)
			}
			if res.Integrity != "ok" {
				t.Errorf("integrity check: %s", res.Integrity)
			}
			if res.Corrections != 0 {
				t.Errorf("the recalculation made %d corrections:\n%s", res.Corrections, res.RestoreOut)
			}
			if !res.Holds(N) {
				t.Errorf("a write acknowledged %s before the kill is lost (%d lost of %d)", res.OldestLost.Round(time.Millisecond), len(res.Lost), res.Acked)
			}
			t.Logf("%d acknowledged, %d restored, %d lost (oldest %s before the kill), %d restored whose answer the kill cut; restore %s",
				res.Acked, res.Restored, len(res.Lost), res.OldestLost.Round(time.Millisecond), res.Unacked, res.RestoreTook.Round(time.Millisecond))
		})
	}
}
