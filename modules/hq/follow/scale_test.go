package follow_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"swapbay/modules/hq/follow"
)

// TestScaleIdle (SWAPBAY_HQ_SCALE=N to run): N cities' replicas (directories) followed with the
// production options; it reports how long until every copy follows, then the CPU and the heap
// of N idle followers over 20 s (each polls its replica every second and lists level 0 every
// two). The cities are closed first: only HQ's work is measured.
func TestScaleIdle(t *testing.T) {
	var n int
	if _, err := fmt.Sscan(os.Getenv("SWAPBAY_HQ_SCALE"), &n); err != nil || n <= 0 {
		t.Skip("set SWAPBAY_HQ_SCALE=N to follow N replicas")
	}
	var cities []*city
	for i := 0; i < n; i++ {
		c := newCity(t)
		c.write(50)
		c.stop()
		cities = append(cities, c)
	}
	set := follow.NewSet(context.Background(), t.TempDir(), follow.DefaultOptions(), nil)
	defer set.Close()
	start := time.Now()
	for i, c := range cities {
		set.Put(fmt.Sprint(i), c.cfg())
	}
	waitFor(t, 5*time.Minute, "every copy following", func() bool {
		for i := range cities {
			if st, _ := set.Status(fmt.Sprint(i)); st.State != follow.StateFollowing {
				return false
			}
		}
		return true
	})
	t.Logf("%d copies restored and following in %s", n, time.Since(start).Round(time.Millisecond))
	cpu0 := cpuTime()
	wall := 20 * time.Second
	time.Sleep(wall)
	cpu := cpuTime() - cpu0
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%d idle followers: CPU %.1f%% of one core over %s, heap in use %d MB, goroutines %d",
		n, 100*cpu.Seconds()/wall.Seconds(), wall, ms.HeapInuse>>20, runtime.NumGoroutine())
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
