package catalog

import (
	"errors"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestCatalogAPI(t *testing.T) {
	c := NewInMemoryCatalog("cat", "db")
	p := NewObjectPath("db", "t")
	schema := types.NewPhysicalSchema([]string{"a", "day"}, []*types.DataType{types.IntType(), types.StringType()})
	if err := c.CreateTable(p, NewCatalogTable(schema, []string{"day"}, map[string]string{"connector": "x"}, "c"), false); err != nil {
		t.Fatal(err)
	}
	spec := NewCatalogPartitionSpec(map[string]string{"day": "mon"})
	if err := c.CreatePartition(p, spec, NewCatalogPartition(map[string]string{"k": "v"}, "p"), false); err != nil {
		t.Fatal(err)
	}
	var inv *PartitionSpecInvalidError
	if err := c.CreatePartition(p, NewCatalogPartitionSpec(map[string]string{"day": "x", "h": "1"}), NewCatalogPartition(nil, ""), false); !errors.As(err, &inv) {
		t.Fatalf("invalid spec: %v", err)
	}
	var exists *PartitionAlreadyExistsError
	if err := c.CreatePartition(p, spec, NewCatalogPartition(nil, ""), false); !errors.As(err, &exists) {
		t.Fatalf("duplicate partition: %v", err)
	}
	if s, _ := c.GetPartitionStatistics(p, spec); s.GetRowCount() != -1 {
		t.Fatalf("unknown statistics expected, got %+v", s)
	}
	if err := c.AlterPartitionStatistics(p, spec, NewCatalogTableStatistics(10, 1, 100, 200, nil), false); err != nil {
		t.Fatal(err)
	}
	if s, _ := c.GetPartitionStatistics(p, spec); s.GetRowCount() != 10 || s.GetRawDataSize() != 200 {
		t.Fatalf("statistics %+v", s)
	}
	cs := NewCatalogColumnStatistics(map[string]ColumnStats{"a": {Min: int32(1)}}, nil)
	if err := c.AlterPartitionColumnStatistics(p, spec, cs, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.GetPartitionColumnStatistics(p, spec); got.GetColumnStatisticsData()["a"].Min != int32(1) {
		t.Fatalf("column statistics %+v", got)
	}
	missing := NewCatalogPartitionSpec(map[string]string{"day": "tue"})
	if err := c.AlterPartitionStatistics(p, missing, NewCatalogTableStatistics(1, 1, 1, 1, nil), true); err != nil {
		t.Fatalf("ignoreIfNotExists: %v", err)
	}
	// a partitioned table cannot become unpartitioned, a table not a view
	if err := c.AlterTable(p, NewCatalogTable(schema, nil, nil, ""), false); err == nil {
		t.Fatal("partitioned to regular must fail")
	}
	if err := c.AlterTable(p, NewCatalogView("SELECT 1", "SELECT 1", schema, nil, ""), false); err == nil {
		t.Fatal("table to view must fail")
	}
	bt, _ := c.GetTable(p)
	if bt.(*Table).GetUnresolvedSchema().PhysicalColumnCount() != 2 || bt.(*Table).GetDescription() != "c" {
		t.Fatal("table accessors")
	}
	f := NewCatalogFunction("my.fn", "")
	if f.GetFunctionLanguage() != "GO" || !f.IsGeneric() || f.Copy().GetClassName() != "my.fn" {
		t.Fatal("function accessors")
	}
	op, err := ParseObjectPath("db.obj")
	if err != nil || op.GetDatabaseName() != "db" || op.GetObjectName() != "obj" || op.GetFullName() != "db.obj" {
		t.Fatal("object path")
	}
	d := NewCatalogDatabase(map[string]string{"k": "v"}, "comment")
	if d.Copy().GetProperties()["k"] != "v" || d.GetDescription() != "comment" {
		t.Fatal("database accessors")
	}
}

func TestSchemaBuilder(t *testing.T) {
	s := NewSchemaBuilder().Column("id", types.IntType().NotNull()).ColumnByExpression("x", "id + 1").
		ColumnByMetadata("ts", "TIMESTAMP_LTZ(3)", "timestamp", true).WithComment("event time").
		Watermark("ts", "ts - INTERVAL '1' SECOND").PrimaryKey("id").Build()
	want := "(\n  `id` INT NOT NULL,\n  `x` AS id + 1,\n  `ts` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL COMMENT 'event time',\n  WATERMARK FOR `ts` AS ts - INTERVAL '1' SECOND,\n  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED\n)"
	if s.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", s, want)
	}
	if err := NewSchemaBuilder().Column("a", 42).Build().Err(); err == nil {
		t.Fatal("a bad type must be reported")
	}
	if err := NewSchemaBuilder().PrimaryKey("a").PrimaryKey("b").Build().Err(); err == nil {
		t.Fatal("two primary keys must be reported")
	}
	copied := NewSchemaBuilder().FromSchema(s).Build()
	if copied.String() != s.String() {
		t.Fatal("FromSchema")
	}
}
