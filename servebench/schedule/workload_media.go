package schedule

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
)

// validateParts checks the content parts of a row's messages before any
// load: each part's type is known and carries its member, every image
// URL is readable (a data: URL's image header decodes in a known format;
// an http(s) URL parses) and every audio clip is base64 in a known
// format. Errors name the field, e.g. messages[0].content[1].image_url.url.
func validateParts(r *record.Request) error {
	for i := range r.Messages {
		for j := range r.Messages[i].Parts {
			p := &r.Messages[i].Parts[j]
			field := fmt.Sprintf("messages[%d].content[%d]", i, j)
			if err := validatePart(p); err != nil {
				return fmt.Errorf("%s.%w", field, err)
			}
		}
	}
	return nil
}

// validatePart checks one content part; its error starts with the
// member it names.
func validatePart(p *record.ContentPart) error {
	switch p.Type {
	case record.PartText:
		if p.ImageURL != nil || p.InputAudio != nil {
			return fmt.Errorf("type: a text part carries only text")
		}
	case record.PartImageURL:
		if p.ImageURL == nil || p.Text != "" || p.InputAudio != nil {
			return fmt.Errorf("image_url: an image_url part needs image_url and nothing else")
		}
		if err := p.ImageURL.CheckURL(); err != nil {
			return fmt.Errorf("image_url.url: %w", err)
		}
	case record.PartInputAudio:
		if p.InputAudio == nil || p.Text != "" || p.ImageURL != nil {
			return fmt.Errorf("input_audio: an input_audio part needs input_audio and nothing else")
		}
		if err := p.InputAudio.CheckAudio(); err != nil {
			return fmt.Errorf("input_audio.%w", err)
		}
	default:
		return fmt.Errorf("type: unknown content part type %q (want text, image_url or input_audio)", p.Type)
	}
	return nil
}
