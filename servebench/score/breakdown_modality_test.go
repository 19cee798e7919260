package score

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report/render"
)

// TestBreakdownByModality scores outcomes with image or audio parts as
// their modality and text-only ones as "text"; each value's share and
// TTFT are its own. Text TTFTs {100 − 1, 300 − 2} = {99, 298}: p50 by
// nearest rank (⌈0.5·2⌉ = 1st) is 99; the image value holds the one
// request of TTFT 900 − 3 = 897; image+audio holds the failed one.
func TestBreakdownByModality(t *testing.T) {
	s := testSchedule(map[string]float64{"t1": 0, "t2": 0, "i1": 0, "a1": 0}, "t1", "t2", "i1", "a1")
	img := success("i1", 0, 3, []float64{900}, 1000, new(1))
	img.Images, img.ImageBytes, img.ImagePixels = 2, 5000, 2*256*256
	both := record.Outcome{ID: "a1", Attempt: 1, Status: record.StatusHTTPError, SentMS: new(4.0), TerminalMS: 5, HTTPStatus: new(500),
		Images: 1, AudioInputs: 1}
	r, err := Outcomes(s, []record.Outcome{success("t1", 0, 1, []float64{100}, 200, new(1)), success("t2", 0, 2, []float64{300}, 400, new(1)), img, both}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests[0].Modality != "" || r.Requests[2].Modality != "image" || r.Requests[3].Modality != "image+audio" {
		t.Fatalf("modalities %q %q %q", r.Requests[0].Modality, r.Requests[2].Modality, r.Requests[3].Modality)
	}
	dim := r.Breakdown["modality"]
	if dim == nil {
		t.Fatal("no modality breakdown")
	}
	text, image, ia := dim.Values["text"], dim.Values["image"], dim.Values["image+audio"]
	if text.Offered != 2 || text.Share != 0.5 || *text.TTFT.P50 != 99 || image.Offered != 1 || *image.TTFT.P50 != 897 ||
		ia.Offered != 1 || ia.TTFT.N != 0 || len(dim.Values) != 3 {
		t.Fatalf("modality breakdown %+v", dim.Values)
	}
	var sb strings.Builder
	if err := render.Text(&sb, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "Breakdown by modality") {
		t.Fatalf("text report:\n%s", sb.String())
	}
	textOnly, err := Outcomes(testSchedule(map[string]float64{"t1": 0}, "t1"), []record.Outcome{success("t1", 0, 1, []float64{100}, 200, new(1))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := textOnly.Breakdown["modality"]; ok {
		t.Fatal("a text-only run has a modality breakdown")
	}
}
