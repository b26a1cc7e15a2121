package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/lib/clock"
	"swapbay/lib/schema"
	"swapbay/modules/health"
)

// demoModel is the demo packs' model (registerPacks mints them all of it).
const demoModel = "SB-36V-10"

// packHealth gives the demo its pack health (issue 46): the model's figures and the readings of
// health.DemoReadingsCSV — most packs healthy, a few worn, one losing capacity fast — imported
// as an admin would, through the one import.
func (s *seeder) packHealth() error {
	wh, ah, threshold := health.DemoNominalWh, health.DemoDesignAh, float64(schema.DefaultPackThreshold)
	if _, err := health.SaveModel(s.app, health.ModelInput{Model: demoModel, NominalWh: &wh, RatedAh: &ah, Threshold: &threshold}); err != nil {
		return fmt.Errorf("pack model: %w", err)
	}
	var serials []string
	if err := s.app.DB().NewQuery("SELECT [[serial]] FROM " + schema.Packs + " ORDER BY [[serial]]").Column(&serials); err != nil {
		return err
	}
	if len(serials) == 0 || s.opts.withoutReadings {
		return nil
	}
	_, _, err := health.ImportReadings(s.app, health.DemoReadingsCSV(serials, s.now), false, "seed-demo", s.admin.Id)
	if err != nil {
		return fmt.Errorf("pack readings: %w", err)
	}
	return nil
}

// newDemoReadingsCommand is `swapbay demo-readings`: it prints the demo readings CSV
// (health.DemoReadingsCSV) for the packs registered in the data dir, as of now, so the e2e
// tests and a person trying the feature can import it on the Packs page. It writes nothing.
func newDemoReadingsCommand(app core.App) *cobra.Command {
	return command("demo-readings", "Print a demo pack readings CSV for the registered packs (writes nothing)", "swapbay demo-readings --dir=./pb_data > readings.csv",
		migrated(app, func(cmd *cobra.Command) error {
			var serials []string
			if err := app.DB().NewQuery("SELECT [[serial]] FROM " + schema.Packs + " ORDER BY [[serial]]").Column(&serials); err != nil {
				return err
			}
			if len(serials) == 0 {
				return errors.New("no packs are registered in this data dir")
			}
			_, err := io.WriteString(cmd.OutOrStdout(), health.DemoReadingsCSV(serials, clock.Now()))
			return err
		}))
}
