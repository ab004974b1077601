// Package charts draws charts of query results with gonum/plot, without
// GUI imports: the workbench shows the images, tests check the models.
//
// The pieces, in the order a chart tab uses them:
//
//   - Settings say what to draw (kind, X, Y columns, series column,
//     event-time window); Detect picks them for a fresh result (a line
//     chart over time when there is a time column such as window_start),
//     and Marshal/ParseSettings keep them in the workspace as JSON.
//   - Build reads the latest rows of a *results.Result (results.ReadValues)
//     and returns a Model: axes with kinds (time, number, category), labels
//     with units where known, ranges, and the series with their points or
//     histogram bins.
//   - Model.Plot turns a model into a gonum plot in the theme's colours;
//     Render draws it into an image of a given pixel size and DPI,
//     WritePNG/WriteSVG/Save write files.
//   - Live re-renders a running result's chart off the UI goroutine, at
//     most a few times a second and only when the result changed.
package charts
