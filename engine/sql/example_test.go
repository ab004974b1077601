package sql_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

func ExampleParse() {
	st, err := sql.Parse("SELECT user_id, COUNT(*) AS cnt FROM Orders WHERE amount > 10 GROUP BY user_id")
	if err != nil {
		panic(err)
	}
	q := st.(*sql.Query)
	sel := q.Body.(*sql.Select)
	id := sel.Items[0].Expr.(*sql.Identifier)
	fmt.Println(id.Parts[0].Name, id.Pos())
	fmt.Println(st)
	// Output:
	// user_id line 1, column 8
	// SELECT `user_id`, COUNT(*) AS `cnt` FROM `Orders` WHERE `amount` > 10 GROUP BY `user_id`
}

func ExampleParse_error() {
	_, err := sql.Parse("SELECT * FORM Orders")
	var e *sql.Error
	if errors.As(err, &e) {
		fmt.Println(e.Line, e.Column)
		fmt.Println(strings.SplitN(e.Msg, "\n", 2)[0])
	}
	// Output:
	// 1 10
	// Encountered "FORM" at line 1, column 10.
}

func ExampleFormatSQL() {
	out, err := sql.FormatSQL("select a, sum(b) from t join u on t.id = u.id where c > 1 group by a")
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// SELECT
	//   a,
	//   sum(b)
	// FROM t
	// JOIN u
	//   ON t.id = u.id
	// WHERE c > 1
	// GROUP BY a;
}

func ExampleSplitStatements() {
	script := "SET 'execution.runtime-mode' = 'batch';\n-- a comment; with a semicolon\nSELECT ';' AS s;\n"
	for _, s := range sql.SplitStatements(script) {
		fmt.Printf("%d:%d %s\n", s.Start.Line, s.Start.Column, s.Text)
	}
	// Output:
	// 1:1 SET 'execution.runtime-mode' = 'batch'
	// 3:1 SELECT ';' AS s
}
