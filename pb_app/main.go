// Command swapbay is the SwapBay server: PocketBase with SwapBay's modules and the React UI
// embedded. `swapbay serve` starts it; see README.md for the other commands.
package main

import (
	"log"
	"os"

	"github.com/pocketbase/pocketbase"

	"swapbay/lib/sqlitedb"
	"swapbay/pb_app/setup"
)

func main() {
	if runBeforeBootstrap("restore", newRestoreCommand) || runBeforeBootstrap("hq", newHQCommand) {
		return
	}
	// the Go heap's budget: GOMEMLIMIT from the environment, else half the machine's memory
	if limit := setMemoryLimit(); limit > 0 && len(os.Args) > 1 && os.Args[1] == "serve" {
		log.Printf("memory limit %d MB (half the machine's memory; set GOMEMLIMIT to choose)", limit>>20)
	}
	// Dev mode (SQL and request logs on stdout) only with --dev: PocketBase's default guesses
	// "go run" from the binary living under the temp dir, which CI checkouts can do. The
	// database connections keep their prepared statements (lib/sqlitedb).
	app := pocketbase.NewWithConfig(pocketbase.Config{
		DefaultDev: false, DBConnect: sqlitedb.Connect,
		DataMaxOpenConns: sqlitedb.MaxOpenConns, DataMaxIdleConns: sqlitedb.MaxIdleConns,
	})
	refuseHQDir(app) // a head-office dir is not a city's
	setup.Register(app)
	registerCommands(app)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
