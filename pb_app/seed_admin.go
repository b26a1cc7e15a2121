package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"net/url"
	"time"

	"github.com/pocketbase/pocketbase/core"

	"swapbay/lib/clock"
	"swapbay/lib/roles"
	"swapbay/lib/schema"
	"swapbay/modules/earnings"
	"swapbay/modules/photos"
	"swapbay/modules/terms"
	"swapbay/modules/users"
)

// pay gives the earnings panels something real: rates from the start of the history with a
// raise last Monday (so last week and this week are paid differently), a pool withholding
// for the admin, and one audited task adjustment this week.
func (s *seeder) pay() error {
	today := clock.DayStart(s.now, s.loc)
	start := time.Date(today.Year(), today.Month(), today.Day()-demoDays, 5, 0, 0, 0, s.loc)
	if _, err := earnings.SetRates(s.app, s.master, earnings.Rates{DeadBattery: 125, Move: 35, Recover: 150}, start); err != nil {
		return err
	}
	thisWeek := earnings.WeekOf(s.now, s.loc)
	if raise := thisWeek.Start.Add(time.Hour); raise.Before(s.now) {
		if _, err := earnings.SetRates(s.app, s.master, earnings.Rates{DeadBattery: 150, Move: 40, Recover: 175}, raise); err != nil {
			return err
		}
	}
	if _, err := users.SetPoolWithholding(s.app, s.master, s.admin.Id, 250); err != nil { // keeps 25%
		return err
	}
	in := earnings.AdjustmentInput{UserId: s.drivers[1].Id, WeekStart: thisWeek.StartDate(), TaskType: "moves",
		Reason: "GPS dropped out on Tuesday's route; moves confirmed from the scooter logs"}
	if err := in.AdjustedCount.UnmarshalJSON([]byte("25")); err != nil {
		return err
	}
	if _, err := earnings.Adjust(s.app, s.admin, in, s.now, s.loc); err != nil {
		return fmt.Errorf("task adjustment: %w", err)
	}
	return nil
}

// agreements has every approved demo account but the liaison sign the active terms, a few
// days apart, with a drawn signature, and makes their PDFs (the liaison's account bypasses the
// terms, as the Create User dialog allows).
func (s *seeder) agreements() error {
	active, err := terms.FindActive(s.app)
	if err != nil {
		return err
	}
	for i, u := range s.all {
		if u.GetString(schema.UserIsApproved) != roles.Approved || u.GetString(schema.UserRole) == roles.Liaison {
			continue
		}
		at := s.now.Add(-time.Duration(demoDays-i%demoDays) * 24 * time.Hour)
		err := s.app.RunInTransaction(func(tx core.App) error {
			_, err := terms.RecordAgreement(tx, terms.Signature{User: u, Terms: active, PNG: demoSignature(i),
				IP: fmt.Sprintf("198.51.100.%d", 10+i), UserAgent: demoAgents[i%len(demoAgents)], SignedAt: at})
			return err
		})
		if err != nil {
			return fmt.Errorf("agreement of %s: %w", u.Email(), err)
		}
	}
	terms.WaitForPDFs(s.app)
	return nil
}

var demoAgents = []string{
	"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
}

// demoSignature draws a signature-like scribble as a PNG, different for each i.
func demoSignature(i int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 400, 120))
	for x := 20; x < 380; x++ {
		y := 60 + int(25*math.Sin(float64(x+i*17)/18)*math.Cos(float64(x)/53))
		for d := -1; d <= 1; d++ {
			img.Set(x, y+d, color.RGBA{15, 23, 42, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// demoPhotoNotes are what drivers write under their photos.
var demoPhotoNotes = []string{
	"Scooter 17: cracked battery housing",
	"Charging port corroded on scooter 42",
	"Swollen cell, left at the depot",
	"Kickstand bent, battery fine",
	"",
}

// photos uploads generated pictures from three drivers through the real upload path (signed
// URL, type sniffing, re-encoding, claim), so /admin-photos shows a gallery with thumbnails.
func (s *seeder) photos() error {
	for i := 0; i < 7; i++ {
		drv := s.drivers[i%3]
		at := s.now.Add(-time.Duration(7-i) * 5 * time.Hour)
		raw, err := photos.NewUploadURL(s.app, drv.Id, at)
		if err != nil {
			return err
		}
		u, err := url.Parse(raw)
		if err != nil {
			return err
		}
		id := u.Path[len(photos.UploadPath):]
		q := u.Query()
		if _, err := photos.Receive(s.app, drv.Id, id, q.Get("exp"), q.Get("sig"), bytes.NewReader(demoImage(i)), at); err != nil {
			return fmt.Errorf("photo %d: %w", i, err)
		}
		notes := demoPhotoNotes[i%len(demoPhotoNotes)]
		if _, err := photos.Claim(s.app, drv.Id, photos.ClaimForm{Filename: fmt.Sprintf("scooter-%02d.jpg", 10+i), URL: u.Path, Notes: &notes}, at); err != nil {
			return fmt.Errorf("claim photo %d: %w", i, err)
		}
	}
	return nil
}

// demoImage is a 640×480 JPEG: a coloured "scooter deck" with a battery drawn on it, different
// for each i.
func demoImage(i int) []byte {
	const w, h = 640, 480
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	base := []color.RGBA{{34, 197, 94, 255}, {59, 130, 246, 255}, {234, 179, 8, 255}, {239, 68, 68, 255}, {168, 85, 247, 255}}[i%5]
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			shade := uint8((x + y + i*37) % 40)
			img.Set(x, y, color.RGBA{base.R - min(base.R, shade), base.G - min(base.G, shade), base.B - min(base.B, shade), 255})
		}
	}
	// the battery: a dark body with a terminal and a charge bar
	fill := func(x0, y0, x1, y1 int, c color.RGBA) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Set(x, y, c)
			}
		}
	}
	fill(170, 170, 450, 310, color.RGBA{30, 41, 59, 255})
	fill(450, 215, 475, 265, color.RGBA{30, 41, 59, 255})
	fill(185, 185, 185+((i*53)%250)+15, 295, color.RGBA{226, 232, 240, 255})
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	return buf.Bytes()
}
