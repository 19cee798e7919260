package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parseBatchSizes reads --batch-sizes: comma-separated positive integers.
func parseBatchSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive batch size", f)
		}
		out = append(out, n)
	}
	return out, nil
}
