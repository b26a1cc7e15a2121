package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"swapbay/modules/packs"
)

// The scanner's speed (issue 36 item 3): aims of the tap on "Scan" to the first pack listed,
// and of decoding one 640×480 frame.
const (
	scanAimMedian   = 1000 * time.Millisecond
	scanAimP90      = 2000 * time.Millisecond
	decodeAimMedian = 20 * time.Millisecond
)

var flagScanRuns = flag.Int("scan-runs", 12, "with the scanner part: fresh-page runs per detector path (at least 10)")

// scanRun is one fresh-page scan: ms from the tap on Scan to the first pack listed, and to
// each of the scanner's performance marks (scan:open, scan:camera, scan:detector:<kind>,
// scan:looking, scan:code:added; ui/src/features/scan).
type scanRun struct {
	Ms    float64            `json:"ms"`
	Marks map[string]float64 `json:"marks"`
}

// scanStages are the marks of a scan in the order they happen, with what each means.
var scanStages = []struct{ mark, text string }{
	{"scan:tap", "the click (tap ended)"},
	{"scan:open", "scanner chunk loaded, dialog open"},
	{"scan:camera", "camera stream"},
	{"scan:detector:%s", "detector ready (polyfill: wasm fetched and compiled)"},
	{"scan:looking", "video playing, looking"},
	{"scan:code:added", "first code decoded and added"},
}

func runTimes(runs []scanRun) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		out[i] = r.Ms
	}
	return out
}

// stagesTable is the median time from the tap to each stage of runs made with detector kind.
func stagesTable(kind string, runs []scanRun) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nWhere the time goes, %s path (median ms from the tap over the %d runs; the scanner's performance marks):\n\n| stage | median | p90 |\n|---|---:|---:|\n", kind, len(runs))
	for _, st := range scanStages {
		mark := st.mark
		if strings.Contains(mark, "%s") {
			mark = fmt.Sprintf(mark, kind)
		}
		var xs []float64
		for _, r := range runs {
			if v, ok := r.Marks[mark]; ok {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "| `%s`: %s | %.0f ms | %.0f ms |\n", mark, st.text, quantile(xs, 0.5), quantile(xs, 0.9))
	}
	t := runTimes(runs)
	fmt.Fprintf(&b, "| first pack listed | %.0f ms | %.0f ms |\n", quantile(t, 0.5), quantile(t, 0.9))
	return b.String()
}

// scanResult is e2e/bench/scan.bench.ts's answer (times in ms).
type scanResult struct {
	Native       bool      `json:"nativeAvailable"`
	UserAgent    string    `json:"userAgent"`
	NativeRuns   []scanRun `json:"native"`
	PolyfillRuns []scanRun `json:"polyfill"`
	Decode       *struct {
		Width   int       `json:"width"`
		Height  int       `json:"height"`
		Wasm    string    `json:"wasm"`
		Version string    `json:"version"`
		Times   []float64 `json:"times"`
	} `json:"decode"`
}

// scanPart measures the scanner on the small data set: a driver's phone in Debian's Chromium
// (Playwright, the phone project's device) whose fake camera streams the label of a registered
// pack (the app's label code, rendered and played as e2e/camera.ts does for the tests), pack
// tracking optional so the pickup form scans. It returns the report section.
func scanPart() string {
	var b strings.Builder
	b.WriteString("\n## Scanning a pack label (issue 36)\n\n")
	if _, err := os.Stat("e2e/node_modules/@playwright/test"); err != nil {
		b.WriteString("Not measured: e2e dependencies missing (make e2e-deps).\n")
		return b.String()
	}
	ds := smallDataSet()
	check(preparePacks(ds, 1)) // packs BEN-000001… in ready, tracking optional
	srv := serve(ds)
	defer srv.stop()
	dir, err := os.MkdirTemp("", "swapbay-scan-bench-")
	check(err)
	defer os.RemoveAll(dir)

	serial := benchSerial(1)
	sheet := filepath.Join(dir, "sheet.pdf")
	f, err := os.Create(sheet)
	check(err)
	check(packs.WriteLabels(f, srv.base, []packs.Label{{Serial: serial, Model: "Bench 48V", Lot: "BENCH"}}))
	check(f.Close())
	video := filepath.Join(dir, "camera.y4m")
	mk := exec.Command("bash", "e2e/scripts/camera-video.sh", video, "2", sheet+":0")
	mk.Stderr = os.Stderr
	check(mk.Run())

	load := loadAverage()
	out := filepath.Join(dir, "scan.json")
	cmd := exec.Command("npx", "playwright", "test", "-c", "bench.config.ts")
	cmd.Dir = "e2e"
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = append(os.Environ(),
		"SCAN_BENCH_BASE="+srv.base, "SCAN_BENCH_VIDEO="+video, "SCAN_BENCH_OUT="+out,
		"SCAN_BENCH_RUNS="+strconv.Itoa(max(*flagScanRuns, 10)), "SCAN_BENCH_CODE="+packs.PackURL(srv.base, serial),
		"SCAN_BENCH_EMAIL="+ds.drivers[0].Email(), "SCAN_BENCH_PASSWORD="+benchPassword,
		"E2E_OUTPUT="+filepath.Join(dir, "results"))
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(&b, "Not measured: the browser part failed (%s).\n", err)
		return b.String()
	}
	raw, err := os.ReadFile(out)
	check(err)
	var r scanResult
	check(json.Unmarshal(raw, &r))
	log.Printf("scan: native %v, polyfill %v", runTimes(r.NativeRuns), runTimes(r.PolyfillRuns))

	fmt.Fprintf(&b, "Debian's Chromium (Playwright, the phone project's 390×844 touch device) with a fake camera\n"+
		"streaming a 640×480 video of a pack label (the app's label sheet, 150 dpi, e2e/scripts/camera-video.sh);\n"+
		"a driver's pickup form with pack tracking optional, each run on a fresh page (new browser context:\n"+
		"cold cache), from the tap on \"Scan\" (its pointerdown) to the first pack listed. Aims: median ≤ %.1f s,\n"+
		"p90 ≤ %.1f s; one frame decoded ≤ %.0f ms. Load average before: %s, after: %s.\n\n",
		scanAimMedian.Seconds(), scanAimP90.Seconds(), ms2f(decodeAimMedian), load, loadAverage())
	b.WriteString("| detector | runs | median | p90 | slowest | aim |\n|---|---:|---:|---:|---:|---|\n")
	if r.Native {
		b.WriteString(scanRow("native BarcodeDetector", runTimes(r.NativeRuns)))
	} else {
		b.WriteString("| native BarcodeDetector | — | — | — | — | not available here: `'BarcodeDetector' in window` is false in this Chromium on Linux, also with --enable-experimental-web-platform-features (Chrome has it on Android, macOS, ChromeOS) |\n")
	}
	b.WriteString(scanRow("barcode-detector polyfill (zxing-wasm), forced", runTimes(r.PolyfillRuns)))
	if len(r.NativeRuns) > 0 {
		b.WriteString(stagesTable("native", r.NativeRuns))
	}
	if len(r.PolyfillRuns) > 0 {
		b.WriteString(stagesTable("polyfill", r.PolyfillRuns))
	}
	if d := r.Decode; d != nil {
		med, p90 := quantile(d.Times, 0.5), quantile(d.Times, 0.9)
		fmt.Fprintf(&b, "\nOne %d×%d camera frame (ImageData) decoded in the page by barcode-detector %s's `detect()` with\n"+
			"the app's own wasm (`%s`), after 5 warm-up calls, %d timed: median %.1f ms, p90 %.1f ms, fastest %.1f ms (aim ≤ %.0f ms: %s; on a\n"+
			"busy machine the fastest call is the closest to the decoder's own cost).\n",
			d.Width, d.Height, d.Version, d.Wasm, len(d.Times), med, p90, quantile(d.Times, 0), ms2f(decodeAimMedian), verdict(med <= ms2f(decodeAimMedian)))
	}
	return b.String()
}

// scanRow is one detector path's table row.
func scanRow(name string, times []float64) string {
	if len(times) == 0 {
		return fmt.Sprintf("| %s | 0 | — | — | — | not measured |\n", name)
	}
	med, p90 := quantile(times, 0.5), quantile(times, 0.9)
	slowest := quantile(times, 1)
	return fmt.Sprintf("| %s | %d | %.0f ms | %.0f ms | %.0f ms | median %s, p90 %s |\n", name, len(times), med, p90, slowest,
		verdict(med <= ms2f(scanAimMedian)), verdict(p90 <= ms2f(scanAimP90)))
}

// quantile is the q-th quantile of xs (nearest rank: the smallest value with at least q of
// the values at or below it).
func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms2f(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
