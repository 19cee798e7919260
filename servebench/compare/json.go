package compare

import (
	"encoding/json"
	"fmt"
)

// JSON is the comparison's indented JSON form, ending in a newline.
func (c *Comparison) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return append(b, '\n'), nil
}
