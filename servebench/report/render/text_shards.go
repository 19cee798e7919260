package render

import (
	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// writeShardsText adds a sharded run's shards to the text report: the
// shard's own share and start, or every shard of a merged run.
func writeShardsText(line func(label, format string, args ...any), g *report.GeneratorReport) {
	if t := g.Shard; t != nil {
		line("Shard", "%s: %d scheduled, start offset %s ms from %s", t.Shard, t.Scheduled, numfmt.OptCompact(t.StartOffsetMS), orNone(t.StartAt))
	}
	if len(g.Shards) == 0 {
		return
	}
	line("Shards", "%d, start skew %s ms (latest minus earliest start offset)", len(g.Shards), numfmt.OptCompact(g.StartSkewMS))
	for _, t := range g.Shards {
		if t.Missing {
			line("  shard "+t.Shard.String(), "MISSING: its share is recorded as not_sent")
			continue
		}
		line("  shard "+t.Shard.String(), "%d of %d sent, start offset %s ms, max schedule lag %s ms, %d late",
			t.Sent, t.Scheduled, numfmt.OptCompact(t.StartOffsetMS), numfmt.OptCompact(t.MaxScheduleLagMS), t.LateCount)
	}
}

// orNone names an empty string.
func orNone(s string) string {
	if s == "" {
		return "no declared instant"
	}
	return s
}
