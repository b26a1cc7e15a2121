// Command labelsheet writes a pack label sheet for any serials, minted or not, with the app's
// own label code (packs.WriteLabels): the e2e camera fixture prints a label for a serial that
// was never minted (the scanner must refuse it), which GET /api/admin/packs/labels cannot do
// (it prints only registered packs).
//
//	go run ./internal/labelsheet -site http://127.0.0.1:8131 -o sheet.pdf SERIAL...
package main

import (
	"flag"
	"log"
	"os"

	"swapbay/modules/packs"
)

func main() {
	site := flag.String("site", "https://swapbay.example.com", "the site in each QR code's URL (<site>/p/<serial>)")
	out := flag.String("o", "labels.pdf", "the PDF to write")
	model := flag.String("model", "E2E 48V 15Ah", "the model printed on every label")
	lot := flag.String("lot", "E2E", "the lot printed on every label")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("labelsheet: no serials (usage: labelsheet -site URL -o FILE SERIAL...)")
	}
	labels := make([]packs.Label, flag.NArg())
	for i, serial := range flag.Args() {
		labels[i] = packs.Label{Serial: serial, Model: *model, Lot: *lot}
	}
	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	if err := packs.WriteLabels(f, *site, labels); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
