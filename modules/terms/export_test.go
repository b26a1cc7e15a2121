package terms

// SetRenderPDF replaces the PDF renderer until the returned restore is called (tests make
// generation fail with it).
func SetRenderPDF(f func(Evidence) ([]byte, error)) (restore func()) {
	prev := renderPDF
	renderPDF = f
	return func() { renderPDF = prev }
}
