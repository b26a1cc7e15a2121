// Package ui embeds the built React app (ui/dist, made by `npm run build`) into the binary.
package ui

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed all:dist
var dist embed.FS

// Dist returns the built UI's files, rooted at dist/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return sub
}

// BootScriptFile is where the UI build writes the CSP hash of index.html's inline boot script
// (ui/build/boot-script.ts), beside index.html.
const BootScriptFile = "boot-script.sha256"

// BootScriptHash is the CSP source of index.html's boot script ("sha256-…"), as the build
// computed it; "" when the UI is not built (no inline script to allow).
func BootScriptHash() string {
	b, err := fs.ReadFile(Dist(), BootScriptFile)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
