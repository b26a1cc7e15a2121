// Command swapbay is the SwapBay server: PocketBase with SwapBay's modules and the React UI
// embedded. `swapbay serve` starts it; see README.md for the other commands.
package main

import (
	"log"

	"github.com/pocketbase/pocketbase"

	"swapbay/pb_app/setup"
)

func main() {
	app := pocketbase.New()
	setup.Register(app)
	registerCommands(app)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
