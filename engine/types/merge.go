package types

// Type merging and derivation rules, following Flink's LogicalTypeMerging
// (flink-table-common, org.apache.flink.table.types.logical.utils) and the
// decimal rules it adopts from SQL Server / Hive.

const minAdjustedScale = 6

// CommonType returns the least restrictive type all given types can be
// implicitly cast to (Flink's findCommonType), or nil when none exists
// (e.g. INT and BOOLEAN). The result is nullable if any input is; NULL
// inputs do not influence the result.
func CommonType(ts ...*DataType) *DataType {
	nullable := false
	var res *DataType
	for _, t := range ts {
		if t.Nullable {
			nullable = true
		}
		if t.Root == Null {
			continue
		}
		t = t.WithNullable(true).WithTimeAttr(NoTimeAttr)
		if res == nil {
			res = t
			continue
		}
		res = commonPair(res, t)
		if res == nil {
			return nil
		}
	}
	if res == nil {
		// NULL only: untyped
		return NullType()
	}
	return res.WithNullable(nullable)
}

func commonPair(a, b *DataType) *DataType {
	if a.EqualsIgnoreNull(b) {
		return a
	}
	// datetime ± interval / exact numeric patterns
	switch {
	case a.IsDatetime() && b.IsInterval():
		return a
	case a.IsInterval() && b.IsDatetime():
		return b
	}
	switch {
	case a.IsString() && b.IsString(), a.IsBinary() && b.IsBinary():
		length := max(a.Length, b.Length)
		if a.Root == VarChar || a.Root == VarBinary || b.Root == VarChar || b.Root == VarBinary || a.Length != b.Length {
			if a.IsString() {
				return VarCharType(length)
			}
			return VarBinaryType(length)
		}
		return &DataType{Root: a.Root, Nullable: true, Length: length}
	case a.IsNumeric() && b.IsNumeric():
		aExact, bExact := !a.IsApproxNumeric(), !b.IsApproxNumeric()
		switch {
		case aExact && bExact:
			return commonExact(a, b)
		case !aExact && !bExact:
			if a.Root == Double || b.Root == Double {
				return DoubleType()
			}
			return a
		default:
			exact, approx := a, b
			if !aExact {
				exact, approx = b, a
			}
			if exact.Root == DecimalRoot {
				return DoubleType()
			}
			return approx
		}
	case a.Root == DateRoot && b.Root == DateRoot:
		return DateType()
	case a.Root == TimeRoot && b.Root == TimeRoot:
		return TimeType(max(a.Precision, b.Precision))
	case a.IsTimestamp() && b.IsTimestamp():
		p := max(a.Precision, b.Precision)
		if a.Root == TimestampLTZRoot || b.Root == TimestampLTZRoot {
			return TimestampLTZType(p)
		}
		return TimestampType(p)
	case a.Root == IntervalDayTimeRoot && b.Root == IntervalDayTimeRoot:
		return IntervalDayTimeType(ResDayToSecond, max(a.Precision, b.Precision), max(a.Scale, b.Scale))
	case a.Root == IntervalYearMonthRoot && b.Root == IntervalYearMonthRoot:
		return IntervalYearMonthType(ResYearToMonth, max(a.Precision, b.Precision))
	case a.Root == ArrayRoot && b.Root == ArrayRoot:
		if e := CommonType(a.Elem, b.Elem); e != nil && e.Root != Null {
			return ArrayType(e)
		}
	case a.Root == MultisetRoot && b.Root == MultisetRoot:
		if e := CommonType(a.Elem, b.Elem); e != nil && e.Root != Null {
			return MultisetType(e)
		}
	case a.Root == MapRoot && b.Root == MapRoot:
		k, v := CommonType(a.Key, b.Key), CommonType(a.Value, b.Value)
		if k != nil && v != nil {
			return MapType(k, v)
		}
	case a.Root == RowRoot && b.Root == RowRoot && len(a.Fields) == len(b.Fields):
		fields := make([]Field, len(a.Fields))
		for i := range a.Fields {
			ft := CommonType(a.Fields[i].Type, b.Fields[i].Type)
			if ft == nil {
				return nil
			}
			fields[i] = Field{Name: a.Fields[i].Name, Type: ft, Description: a.Fields[i].Description}
		}
		return RowType(fields...)
	}
	return nil
}

func commonExact(a, b *DataType) *DataType {
	if a.Root != DecimalRoot && b.Root != DecimalRoot {
		if b.IntegralRank() > a.IntegralRank() {
			return b
		}
		return a
	}
	p1, s1 := decimalPS(a)
	p2, s2 := decimalPS(b)
	d := min(max(p1-s1, p2-s2), MaxDecimalPrecision)
	s := min(max(s1, s2), MaxDecimalPrecision-d)
	return DecimalType(d+s, s)
}

// decimalPS returns precision and scale of an exact numeric type, treating
// integers as DECIMAL(IntegralPrecision, 0).
func decimalPS(t *DataType) (int, int) {
	if t.Root == DecimalRoot {
		return t.Precision, t.Scale
	}
	return t.IntegralPrecision(), 0
}

// DecimalPS is decimalPS for other packages.
func DecimalPS(t *DataType) (int, int) { return decimalPS(t) }

func adjustPrecisionScale(p, s int) *DataType {
	if p <= MaxDecimalPrecision {
		return DecimalType(p, s)
	}
	digits := p - s
	minScale := min(s, minAdjustedScale)
	return DecimalType(MaxDecimalPrecision, max(MaxDecimalPrecision-digits, minScale))
}

// DecimalAddType is the type of e1 + e2 / e1 - e2 for decimals.
func DecimalAddType(p1, s1, p2, s2 int) *DataType {
	s := max(s1, s2)
	return adjustPrecisionScale(max(p1-s1, p2-s2)+s+1, s)
}

// DecimalMulType is the type of e1 * e2 for decimals.
func DecimalMulType(p1, s1, p2, s2 int) *DataType {
	return adjustPrecisionScale(p1+p2+1, s1+s2)
}

// DecimalDivType is the type of e1 / e2 for decimals.
func DecimalDivType(p1, s1, p2, s2 int) *DataType {
	s := max(minAdjustedScale, s1+p2+1)
	return adjustPrecisionScale(p1-s1+s2+s, s)
}

// DecimalModType is the type of e1 % e2 for decimals.
func DecimalModType(p1, s1, p2, s2 int) *DataType {
	s := max(s1, s2)
	return adjustPrecisionScale(min(p1-s1, p2-s2)+s, s)
}

// DecimalRoundType is the type of ROUND(decimal, r).
func DecimalRoundType(p, s, r int) *DataType {
	switch {
	case r >= s:
		return DecimalType(p, s)
	case r < 0:
		return DecimalType(min(MaxDecimalPrecision, 1+p-s), 0)
	}
	return DecimalType(1+p-s+r, r)
}

// SumAggType is the result type of SUM(t) (Flink: DECIMAL(38, s) for
// decimals, the input type otherwise).
func SumAggType(t *DataType) *DataType {
	if t.Root == DecimalRoot {
		return DecimalType(MaxDecimalPrecision, t.Scale).WithNullable(t.Nullable)
	}
	return t.WithTimeAttr(NoTimeAttr)
}

// AvgAggType is the result type of AVG(t) (Flink: DECIMAL(38, max(6, s))
// for decimals, the input type otherwise — AVG over INT is INT).
func AvgAggType(t *DataType) *DataType {
	if t.Root == DecimalRoot {
		return DecimalDivType(MaxDecimalPrecision, t.Scale, 20, 0).WithNullable(t.Nullable)
	}
	return t.WithTimeAttr(NoTimeAttr)
}
