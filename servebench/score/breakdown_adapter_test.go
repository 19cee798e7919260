package score

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// TestBreakdownByAdapterSplitsColdFromWarm: each adapter's first request
// sent is its cold one, whatever the order of the report's entries.
func TestBreakdownByAdapterSplitsColdFromWarm(t *testing.T) {
	reqs := []report.RequestScore{
		{ID: "1", Adapter: "sql", Status: record.StatusSuccess, Qualified: true, SentMS: new(20.0), TTFTMS: new(40.0)},
		{ID: "2", Adapter: "sql", Status: record.StatusSuccess, Qualified: true, SentMS: new(10.0), TTFTMS: new(500.0)},
		{ID: "3", Adapter: "sql", Status: record.StatusSuccess, SentMS: new(30.0), TTFTMS: new(60.0)},
		{ID: "4", Adapter: "chat", Status: record.StatusHTTPError, SentMS: new(5.0)},
		{ID: "5", Adapter: "chat", Status: record.StatusSuccess, Qualified: true, SentMS: new(6.0), TTFTMS: new(30.0)},
		{ID: "6", Adapter: "base", Status: record.StatusNotSent},
	}
	bd := breakdownOf(reqs, "")
	sql, chat, base := bd["adapter"].Values["sql"], bd["adapter"].Values["chat"], bd["adapter"].Values["base"]
	// sql: request 2 was sent first (10 ms): cold 500; warm {40, 60}.
	if sql.Offered != 3 || sql.Qualified != 2 || sql.ColdRequest != "2" || *sql.ColdTTFTMS != 500 ||
		sql.WarmTTFT.N != 2 || *sql.WarmTTFT.Mean != 50 || *sql.WarmTTFT.Max != 60 || *sql.TTFT.Max != 500 {
		t.Errorf("sql %+v, warm %+v", sql, sql.WarmTTFT)
	}
	// chat: its cold request failed, so it has no cold TTFT; warm {30}.
	if chat.ColdRequest != "4" || chat.ColdTTFTMS != nil || chat.WarmTTFT.N != 1 || *chat.WarmTTFT.Mean != 30 {
		t.Errorf("chat %+v, warm %+v", chat, chat.WarmTTFT)
	}
	// base: never sent, so no cold request and an empty warm sample.
	if base.ColdRequest != "" || base.ColdTTFTMS != nil || base.WarmTTFT.N != 0 {
		t.Errorf("base %+v", base)
	}
	if _, ok := bd["class"]; ok {
		t.Error("a class breakdown without classes")
	}
	if v := bd["backend"]; v != nil {
		t.Error("a backend breakdown without backends")
	}

	r := &report.Report{Offered: len(reqs), Breakdown: bd}
	var text strings.Builder
	if err := render.Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Breakdown by adapter", "cold TTFT ms", "warm TTFT p50"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var html bytes.Buffer
	if err := render.HTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Breakdown by adapter", "<th>cold TTFT</th>", `<td class="mono">sql</td>`, `<td class="n">500</td>`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	js, _ := json.Marshal(sql)
	for _, want := range []string{`"cold_request":"2"`, `"cold_ttft_ms":500`, `"warm_ttft_ms":{`} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("JSON %s lacks %s", js, want)
		}
	}
	noCold, _ := json.Marshal(breakdownOf([]report.RequestScore{{ID: "1", Class: "a", Status: record.StatusSuccess, SentMS: new(1.0), TTFTMS: new(1.0)}}, "")["class"].Values["a"])
	if bytes.Contains(noCold, []byte("cold")) || bytes.Contains(noCold, []byte("warm")) {
		t.Errorf("a class value carries cold-start fields: %s", noCold)
	}
}
