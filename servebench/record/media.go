package record

// Media counts the images and audio clips one request sends.
type Media struct {
	// Images is the number of image parts.
	Images int
	// ImageBytes is their encoded size where known (see ImageURL.Bytes).
	ImageBytes int
	// ImagePixels is their width × height summed, where known.
	ImagePixels int
	// Audio is the number of input_audio parts.
	Audio int
}

// MediaOf counts the content parts of r's messages.
func MediaOf(r *Request) Media {
	var m Media
	for i := range r.Messages {
		for j := range r.Messages[i].Parts {
			p := &r.Messages[i].Parts[j]
			switch {
			case p.Type == PartImageURL && p.ImageURL != nil:
				m.Images++
				m.ImageBytes += p.ImageURL.Bytes
				m.ImagePixels += p.ImageURL.Width * p.ImageURL.Height
			case p.Type == PartInputAudio:
				m.Audio++
			}
		}
	}
	return m
}

// HasMedia says whether r carries an image or audio part.
func HasMedia(r *Request) bool {
	for i := range r.Messages {
		for _, p := range r.Messages[i].Parts {
			if p.Type == PartImageURL || p.Type == PartInputAudio {
				return true
			}
		}
	}
	return false
}

// The modalities a request is grouped by in the report's breakdown.
const (
	ModalityText       = "text"
	ModalityImage      = "image"
	ModalityAudio      = "audio"
	ModalityImageAudio = "image+audio"
)

// Modality names what an outcome's request sent besides text: "text",
// "image", "audio" or "image+audio".
func (o *Outcome) Modality() string {
	switch {
	case o.Images > 0 && o.AudioInputs > 0:
		return ModalityImageAudio
	case o.Images > 0:
		return ModalityImage
	case o.AudioInputs > 0:
		return ModalityAudio
	}
	return ModalityText
}

// SetMedia copies m into the outcome's media fields.
func (o *Outcome) SetMedia(m Media) {
	o.Images, o.ImageBytes, o.ImagePixels, o.AudioInputs = m.Images, m.ImageBytes, m.ImagePixels, m.Audio
}
