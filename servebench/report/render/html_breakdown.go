package render

import (
	"strconv"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// htmlBreakdown is one breakdown dimension's table.
type htmlBreakdown struct {
	Name, Gini, Jain string
	// Cold says the dimension's values start cold: the rows carry the
	// cold and warm TTFTs.
	Cold bool
	// Loaded says the run loaded some of the dimension's values (LoRA
	// adapters) before its load: the rows carry the load time.
	Loaded bool
	Rows   []htmlBreakdownRow
}

// htmlBreakdownRow is one value of a breakdown dimension.
type htmlBreakdownRow struct {
	Value, Offered, Share, Attainment string
	TTFTP50, TTFTP99, TPOTP50, E2EP99 string
	Cold                              bool
	ColdTTFT, WarmP50, WarmP99        string
	Loaded                            bool
	LoadMS                            string
}

// htmlBreakdowns formats the report's breakdown, dimension by dimension in
// report order.
func htmlBreakdowns(r *report.Report) []htmlBreakdown {
	var out []htmlBreakdown
	for _, src := range report.BreakdownSources() {
		dim := r.Breakdown[src.Name]
		if dim == nil {
			continue
		}
		b := htmlBreakdown{Name: src.Name, Gini: numfmt.OptFixed(dim.Gini, 3), Jain: numfmt.OptFixed(dim.Jain, 3)}
		for _, v := range breakdownValues(dim) {
			x := dim.Values[v]
			row := htmlBreakdownRow{Value: v, Offered: strconv.Itoa(x.Offered), Share: numfmt.Fixed(x.Share, 3),
				Attainment: numfmt.OptFixed(x.Attainment, 3),
				TTFTP50:    numfmt.OptCompact(x.TTFT.P50), TTFTP99: numfmt.OptCompact(x.TTFT.P99),
				TPOTP50: numfmt.OptCompact(x.TPOT.P50), E2EP99: numfmt.OptCompact(x.E2E.P99)}
			if x.WarmTTFT != nil {
				b.Cold, row.Cold = true, true
				row.ColdTTFT = numfmt.OptCompact(x.ColdTTFTMS)
				row.WarmP50, row.WarmP99 = numfmt.OptCompact(x.WarmTTFT.P50), numfmt.OptCompact(x.WarmTTFT.P99)
			}
			if x.LoadMS != nil {
				b.Loaded = true
			}
			row.LoadMS = numfmt.OptCompact(x.LoadMS)
			b.Rows = append(b.Rows, row)
		}
		for i := range b.Rows {
			b.Rows[i].Loaded = b.Loaded
		}
		out = append(out, b)
	}
	return out
}
