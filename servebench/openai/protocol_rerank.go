package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// rerankShape is one of the three wire shapes of ranking documents
// against a query.
type rerankShape uint8

const (
	// rerankJina is /v1/rerank in the Jina/Cohere shape (vLLM, SGLang,
	// llama.cpp): query, documents, top_n; answer results[] with index
	// and relevance_score.
	rerankJina rerankShape = iota
	// rerankTEI is TEI's /rerank: query and texts; answer a bare list of
	// {index, score}.
	rerankTEI
	// rerankPairScore is vLLM's /v1/score: text_1 (the query) and text_2
	// (the documents); answer data[] with index and score.
	rerankPairScore
)

// rerankProtocol ranks a row's documents against its query, in one of the
// three shapes.
type rerankProtocol struct {
	pooling
	shape rerankShape
}

func (p rerankProtocol) endpoint() record.Endpoint {
	switch p.shape {
	case rerankTEI:
		return record.EndpointRerankTEI
	case rerankPairScore:
		return record.EndpointPairScore
	}
	return record.EndpointRerank
}

// checkRow: a rerank row carries query and documents; only the Jina shape
// takes top_n.
func (p rerankProtocol) checkRow(r *record.Request) error {
	switch {
	case r.Input != nil:
		return errors.New("input: an embeddings field; a rerank row carries query and documents")
	case r.Query == "":
		return errors.New("query: required (with documents)")
	case len(r.Documents) == 0:
		return errors.New("documents: required (a non-empty array of strings)")
	case r.TopN != nil && p.shape != rerankJina:
		return fmt.Errorf("top_n: the %s endpoint has no top_n (only rerank does)", p.endpoint())
	}
	return nil
}

// carries: a rerank row's inputs are its query and documents.
func (rerankProtocol) carries(r *record.Request) bool { return r.Query != "" || len(r.Documents) > 0 }

// body writes the shape's members: model (not for TEI, which serves one
// model), the query and the documents under the shape's names, top_n when
// the row sets it, then the row's Extra. The answer is never a stream.
func (p rerankProtocol) body(c *Client, r *record.Request) (payload, bool, error) {
	b := newBodyWriter(128+len(r.Query)+textsSize(r.Documents), r.Extra)
	queryName, docsName := "query", "documents"
	switch p.shape {
	case rerankTEI:
		docsName = "texts"
	case rerankPairScore:
		queryName, docsName = "text_1", "text_2"
	}
	var err error
	if p.shape != rerankTEI {
		err = b.put("model", c.modelFor(r))
	}
	if err == nil {
		err = b.put(queryName, r.Query)
	}
	if err == nil {
		err = b.put(docsName, r.Documents)
	}
	if err == nil && r.TopN != nil {
		err = b.put("top_n", *r.TopN)
	}
	if err != nil {
		return payload{}, false, err
	}
	body, err := b.finish()
	return body, false, err
}

// wireRank is one ranked document of any shape.
type wireRank struct {
	Index          *int     `json:"index"`
	RelevanceScore *float64 `json:"relevance_score"`
	Score          *float64 `json:"score"`
}

// wireRerank is a Jina/Cohere (results) or Score API (data) answer.
type wireRerank struct {
	Results []wireRank        `json:"results"`
	Data    []wireRank        `json:"data"`
	Usage   *wirePoolingUsage `json:"usage"`
	Error   json.RawMessage   `json:"error"`
}

// whole checks a ranking answer: every entry names a document sent, none
// twice, each has its score, and together they cover every document (the
// best top_n of them when the row set it).
func (p rerankProtocol) whole(x *exchange, t time.Time, data []byte) {
	var ranks []wireRank
	var usage *wirePoolingUsage
	scoreName := "relevance_score"
	if p.shape == rerankTEI {
		scoreName = "score"
		if !decodePooling(x, t, data, &ranks, nil) {
			return
		}
	} else {
		var w wireRerank
		if !decodePooling(x, t, data, &w, &w.Error) {
			return
		}
		ranks, usage = w.Results, w.Usage
		if p.shape == rerankPairScore {
			ranks, scoreName = w.Data, "score"
		}
	}
	n := len(x.req.Documents)
	x.out.Items = new(n)
	x.out.PromptTokens = usage.inputTokens()
	if msg := checkRanks(ranks, n, x.req.TopN, scoreName); msg != "" {
		x.end(record.StatusInvalidResponse, t, "invalid response: "+msg)
		return
	}
	x.settled = true
	x.out.TerminalMS = x.ms(t)
}

// checkRanks says how ranks fail to cover n documents (the best topN of
// them when set); "" when they cover them.
func checkRanks(ranks []wireRank, n int, topN *int, scoreName string) string {
	want := n
	if topN != nil && *topN < n {
		want = *topN
	}
	if len(ranks) != want {
		return fmt.Sprintf("%d ranked documents for %d sent (want %d)", len(ranks), n, want)
	}
	seen := make([]bool, n)
	for i, r := range ranks {
		if r.Index == nil || *r.Index < 0 || *r.Index >= n || seen[*r.Index] {
			return fmt.Sprintf("entry %d's index %s does not name one of the %d documents once", i, showIndex(r.Index), n)
		}
		seen[*r.Index] = true
		score := r.RelevanceScore
		if scoreName == "score" {
			score = r.Score
		}
		if score == nil {
			return fmt.Sprintf("entry %d has no %s", i, scoreName)
		}
	}
	return ""
}

// showIndex writes an index that may be missing.
func showIndex(p *int) string {
	if p == nil {
		return "(missing)"
	}
	return fmt.Sprint(*p)
}
