package suites

import (
	"github.com/onsi/ginkgo/v2/types"
)

// Location is where a field of the contract is written, for the code
// location of the specs generated from it: a spec report then points at
// the contract line that declared the objective. A field that is not
// written (a default) points at the contract's name.
func (c *Contract) Location(fields ...string) types.CodeLocation {
	for _, f := range fields {
		if line, ok := c.lines[f]; ok {
			return types.CodeLocation{FileName: c.Path, LineNumber: line}
		}
	}
	return types.CodeLocation{FileName: c.Path, LineNumber: max(c.lines["name"], 1)}
}
