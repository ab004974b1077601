// Package authoring holds the models behind Riffle's point-and-click query
// authoring, free of any GUI code so that they can be tested headless:
//
//   - Query, the query builder's model: a table or view, joins, selected
//     columns with aggregates, filters, a window TVF, GROUP BY, ORDER BY and
//     LIMIT. Query.SQL writes Flink SQL, ParseQuery reads SQL back (or says
//     which part the builder cannot show) and Query.Go writes the same query
//     as Table API code.
//   - Design, the table designer's model: columns, primary key, watermark,
//     connector and format options validated against the registered
//     factories, a live CREATE TABLE preview, and the ALTER TABLE statements
//     (or drop-and-create) that turn an existing table into the design.
//   - Grid actions (FilterByValue, GroupByColumn, CountDistinct, SortBy,
//     HideColumn): each rewrites a tab's query through the engine/sql parser
//     and pretty printer.
//   - FormatRange, the Ctrl+Shift+F formatter of a selection or statement.
//
// Values follow the engine's Go value conventions (engine/types): Literal
// turns a result cell into a SQL literal of the column's type.
package authoring
