package photos_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// noiseJPEG is a side x side JPEG of random pixels (noise does not compress: 1060 px ≈ 1 MB).
func noiseJPEG(t testing.TB, side int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func vmHWM() string {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			return strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:"))
		}
	}
	return "?"
}

// TestUploadThroughput measures 8 concurrent uploaders sending ~1 MB photos (PUT + claim)
// through a real server, and the process's peak RSS. Run with PHOTOS_BENCH=1.
func TestUploadThroughput(t *testing.T) {
	if os.Getenv("PHOTOS_BENCH") == "" {
		t.Skip("set PHOTOS_BENCH=1 to measure upload throughput")
	}
	e := newEnv(t)
	img := noiseJPEG(t, 1060)
	const workers, each = 8, 8
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				e.send(e.c.Driver, img, "bench.jpg", "")
			}
		}()
	}
	wg.Wait()
	d := time.Since(start)
	n := workers * each
	t.Logf("%d uploads of %.2f MB by %d uploaders in %v: %.1f uploads/s, %.1f MB/s; peak RSS %s",
		n, float64(len(img))/1e6, workers, d.Round(time.Millisecond), float64(n)/d.Seconds(),
		float64(n*len(img))/1e6/d.Seconds(), vmHWM())
}
