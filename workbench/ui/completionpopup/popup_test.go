package completionpopup

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/completion"
)

// The typed word's own candidate is selected (Enter after "FROM" keeps
// FROM), and a word typed in full needs no acceptance.
func TestExactMatchAndTypedInFull(t *testing.T) {
	res := completion.Result{Prefix: "from", Start: 7, End: 11, Items: []completion.Item{
		{Label: "FROM_BASE64", Insert: "FROM_BASE64", Kind: completion.KindFunction},
		{Label: "FROM", Insert: "FROM", Kind: completion.KindKeyword},
	}}
	if got := exactMatch(res); got != 1 {
		t.Errorf("exactMatch = %d, want 1", got)
	}
	text := "SELECT from"
	if !typedInFull(res, text, res.Items[1]) {
		t.Error("a keyword typed in lower case is typed in full")
	}
	if typedInFull(res, text, res.Items[0]) {
		t.Error("FROM_BASE64 is not typed in full")
	}
	if typedInFull(completion.Result{Start: 5, End: 99}, text, res.Items[1]) {
		t.Error("a range past the text")
	}
}
