package health

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Demo readings (issue 46 item 6): `swapbay seed-demo` imports them, and the e2e tests and the
// UI's story can make the same file. Most packs are healthy, every twentieth (from the fifth) is
// worn (under 80%), the second loses capacity fast (≥ 3 points in 30 days), one ran hot and one
// reported a fault.
const (
	DemoNominalWh = 360.0 // the demo packs' model, SB-36V-10: 36 V × 10 Ah
	DemoDesignAh  = 10.0
)

// DemoKind is what the demo makes of the pack at index i of the sorted serials.
func DemoKind(i int) string {
	switch {
	case i == 1:
		return "fast"
	case i%20 == 4:
		return "worn"
	}
	return "healthy"
}

// DemoReadingsCSV is a readings CSV for serials as of now: for each pack, seven BMS readings
// over ten weeks and a charger reading a week for eight weeks, all in the past.
func DemoReadingsCSV(serials []string, now time.Time) string {
	sorted := append([]string(nil), serials...)
	sort.Strings(sorted)
	var sb strings.Builder
	sb.WriteString("serial,time,source,energyWh,socFrom,socTo,fullAh,designAh,cycles,soh,maxTempC,faults\n")
	day := func(n int, hour int) string {
		t := now.UTC().AddDate(0, 0, -n).Truncate(time.Hour)
		return time.Date(t.Year(), t.Month(), t.Day(), hour, 0, 0, 0, time.UTC).Format(time.RFC3339)
	}
	for i, serial := range sorted {
		kind := DemoKind(i)
		bmsDays := []int{70, 58, 46, 34, 22, 12, 2}
		for j, d := range bmsDays {
			var soh float64
			switch kind {
			case "worn":
				soh = 80.5 - 0.5*float64(j) - float64(i%3)*0.5 // 80.5 → 77.5 or lower
			case "fast":
				soh = []float64{96, 95.8, 95.5, 95, 94.2, 93, 90.4}[j]
			default:
				soh = 98 - float64(i%5)*0.6 - 0.3*float64(j)
			}
			soh = math.Round(soh*10) / 10
			faults := ""
			if i == 5 && j == len(bmsDays)-2 {
				faults = "cell overvoltage"
			}
			fmt.Fprintf(&sb, "%s,%s,bms,,,,%.2f,%.0f,%d,%.1f,%d,%s\n", serial, day(d, 9), DemoDesignAh*soh/100, DemoDesignAh,
				40+j*18+i%11, soh, 24+i%6, faults)
		}
		for w := 7; w >= 0; w-- {
			soh := 97.0
			if kind == "worn" {
				soh = 77
			}
			energy := math.Round(DemoNominalWh*0.8*soh/100*1.05 + float64((i+w)%7))
			temp := 30 + (i+w)%8
			if i == 2 && w == 3 {
				temp = 64 // ran hot once: a negative event
			}
			fmt.Fprintf(&sb, "%s,%s,charger,%.0f,15,95,,,,,%d,\n", serial, day(3+7*w, 18), energy, temp)
		}
	}
	return sb.String()
}
