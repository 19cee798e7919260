package schedule

import (
	"fmt"
	"strconv"
	"strings"
)

// checkCycledIDs refuses an id that a schedule could also give a cycled
// row: the k-th use of row "a" is named "a#k", so a row named "a#2"
// beside a row "a" would collide once the workload cycles. seen maps each
// id to its line.
func checkCycledIDs(w *Workload, seen map[string]int) error {
	for _, r := range w.Requests {
		i := strings.LastIndexByte(r.ID, '#')
		if i < 0 {
			continue
		}
		base, k := r.ID[:i], r.ID[i+1:]
		n, err := strconv.Atoi(k)
		if err != nil || n < 2 || strconv.Itoa(n) != k {
			continue
		}
		if line, ok := seen[base]; ok {
			return fmt.Errorf("%s:%d: id: %q is the name a schedule gives the %s use of row %q (line %d) when the workload cycles; rename it",
				w.Name, r.Line, r.ID, ordinal(n), base, line)
		}
	}
	return nil
}

// ordinal writes 2 as "2nd", 11 as "11th".
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}
