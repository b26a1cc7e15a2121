// Package pb_migrations holds SwapBay's Go migrations, one file per change, named
// <unix>_<verb>_<thing>.go. Importing the package registers them with PocketBase; they run
// on serve and in tests (tests.NewTestApp runs all migrations). Never edit one that has run.
package pb_migrations
