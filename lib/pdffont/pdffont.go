// Package pdffont embeds the font SwapBay's PDFs print with: DejaVu Sans (fonts/LICENSE), so
// any name prints — Greek, Polish, Vietnamese and the rest of Latin, Cyrillic and Greek. The
// agreement PDF (modules/terms) and the pack label sheet (modules/packs) use it.
package pdffont

import _ "embed"

// Family is the font family name the PDFs register the faces under.
const Family = "dejavu"

var (
	// Regular is DejaVu Sans, regular face (TTF bytes).
	//go:embed fonts/DejaVuSans.ttf
	Regular []byte
	// Bold is DejaVu Sans, bold face (TTF bytes).
	//go:embed fonts/DejaVuSans-Bold.ttf
	Bold []byte
)
