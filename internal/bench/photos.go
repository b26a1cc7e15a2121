package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// benchJPEG is a side x side JPEG of random pixels: noise does not compress, 1060 px ≈ 1 MB.
func benchJPEG(side int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var b bytes.Buffer
	check(jpeg.Encode(&b, img, &jpeg.Options{Quality: 90}))
	return b.Bytes()
}

// procStatus returns a field of /proc/self/status (VmRSS, VmHWM), "?" when unreadable.
func procStatus(field string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field+":") {
			return strings.TrimSpace(strings.TrimPrefix(l, field+":"))
		}
	}
	return "?"
}

// procStatusMB returns a field of /proc/self/status counted in kB (VmRSS, VmHWM) in MB, 0 when
// unreadable.
func procStatusMB(field string) float64 {
	kb, _, _ := strings.Cut(procStatus(field), " ")
	n, _ := strconv.ParseFloat(kb, 64)
	return n / 1024
}

// loadPhotos: each client is a driver PUTting a ~1 MB JPEG to a fresh signed upload URL
// (the URL is fetched untimed just before). The PUT streams, sniffs, strips metadata,
// re-encodes and stores; the uploads stay unclaimed. It also returns the process's RSS after
// the run and its peak (the server runs in this process).
func (s *server) loadPhotos(clients int, img []byte, name string) (result, string) {
	cookies := make([]string, clients)
	for w := range cookies {
		cookies[w] = "swapbay_session=" + s.token(s.ds.drivers[w%len(s.ds.drivers)])
	}
	// the throughput of the upload path itself: the bench's loopback address is excluded from
	// the rate limits (PocketBase's setting, which SwapBay's photo PUT limit follows)
	rl := &s.ds.app.Settings().RateLimits
	rl.ExcludedIPs = append(rl.ExcludedIPs, "127.0.0.1")
	defer func() { rl.ExcludedIPs = rl.ExcludedIPs[:len(rl.ExcludedIPs)-1] }()
	r := s.run(name, clients, *flagDuration, func(w, n int) (*http.Request, error) {
		req, _ := http.NewRequest(http.MethodPost, s.base+"/api/objects/upload", nil)
		req.Header.Set("Cookie", cookies[w])
		res, err := s.client.Do(req)
		if err != nil {
			return nil, err
		}
		var out struct{ UploadURL string }
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if err != nil || out.UploadURL == "" {
			return nil, fmt.Errorf("upload url: status %d", res.StatusCode)
		}
		put, err := http.NewRequest(http.MethodPut, s.base+out.UploadURL, bytes.NewReader(img))
		if err == nil {
			put.Header.Set("Cookie", cookies[w])
			put.Header.Set("Content-Type", "image/jpeg")
		}
		return put, err
	})
	return r, fmt.Sprintf("RSS after %s, peak %s", procStatus("VmRSS"), procStatus("VmHWM"))
}
