# insert.q - INSERT validation: schema mismatches and INSERT OVERWRITE.
# Sources: Flink's DynamicSinkUtils.validateSchemaAndApplyImplicitCast
# ("Column types of query result and sink for '...' do not match.\nCause:
# ...\n\nQuery schema: [...]\nSink schema:  [...]", TableSinkITCase
# testSinkWithTypeMismatch), DynamicSinkUtils (INSERT OVERWRITE requires
# SupportsOverwrite), FileSystemTableSink.consume ("Streaming mode not
# support overwrite.").

SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
CREATE TABLE bh (a INT, b DATE, c STRING) WITH ('connector' = 'blackhole');
[INFO] Execute statement succeeded.
!info
INSERT INTO bh SELECT 1, 2, 'x';
[ERROR] Could not execute SQL statement. Reason:
Column types of query result and sink for 'default_catalog.default_database.bh' do not match.
Cause: Incompatible types for sink column 'b' at position 2.
Query schema: [EXPR$0: INT NOT NULL, EXPR$1: INT NOT NULL, EXPR$2: CHAR(1) NOT NULL]
Sink schema:  [a: INT, b: DATE, c: STRING]
!error
INSERT INTO bh SELECT 1 AS x, DATE '2020-01-01' AS y;
[ERROR] Could not execute SQL statement. Reason:
Column types of query result and sink for 'default_catalog.default_database.bh' do not match.
Cause: Different number of columns.
Query schema: [x: INT NOT NULL, y: DATE NOT NULL]
Sink schema:  [a: INT, b: DATE, c: STRING]
!error
# a sink without SupportsOverwrite rejects INSERT OVERWRITE in any mode
INSERT OVERWRITE bh SELECT 1, DATE '2020-01-01', 'x';
[ERROR] Could not execute SQL statement. Reason:
INSERT OVERWRITE requires that the underlying DynamicTableSink of table 'default_catalog.default_database.bh' implements the SupportsOverwrite interface.
!error
# the filesystem sink overwrites in batch mode only
CREATE TABLE fs (a INT) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/overwrite-never-written', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
SET 'execution.runtime-mode' = 'streaming';
[INFO] Execute statement succeeded.
!info
INSERT OVERWRITE fs VALUES (1);
[ERROR] Could not execute SQL statement. Reason:
Streaming mode not support overwrite.
!error
# an INSERT that reads a file runs to its end (the statement waits for
# the job; its result is released only after it)
SET 'execution.runtime-mode' = 'batch';
[INFO] Execute statement succeeded.
!info
CREATE TABLE bids_file (bidtime STRING, price STRING, item STRING) WITH ('connector' = 'filesystem', 'path' = '${TESTDATA}/bids_ooo.csv', 'format' = 'csv');
[INFO] Execute statement succeeded.
!info
INSERT INTO bh SELECT 1, DATE '2020-01-01', item FROM bids_file;
[INFO] Complete execution of the SQL update statement.
!info
