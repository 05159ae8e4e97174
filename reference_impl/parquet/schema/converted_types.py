"""The ConvertedType that each LogicalType implies.

LogicalTypes.md, 'Compatibility': "Parquet writers must always write
LogicalType annotations where applicable, but must also write the
corresponding ConvertedType annotations (if any)". This module is that
correspondence, read off the 'Forward compatibility' tables of each logical
type's section.
"""

from __future__ import annotations

from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, LogicalType, TimeUnit

__all__ = ["converted_type_for"]


_CONVERTED_FOR_SIMPLE_MEMBER = {
    "STRING": ConvertedType.UTF8,
    "MAP": ConvertedType.MAP,
    "LIST": ConvertedType.LIST,
    "ENUM": ConvertedType.ENUM,
    "DECIMAL": ConvertedType.DECIMAL,
    "DATE": ConvertedType.DATE,
    "JSON": ConvertedType.JSON,
    "BSON": ConvertedType.BSON,
    # UNKNOWN, UUID, FLOAT16, VARIANT, GEOMETRY, GEOGRAPHY: "no compatible ConvertedType"
}
_INTEGER_CONVERTED = {
    (8, True): ConvertedType.INT_8,
    (16, True): ConvertedType.INT_16,
    (32, True): ConvertedType.INT_32,
    (64, True): ConvertedType.INT_64,
    (8, False): ConvertedType.UINT_8,
    (16, False): ConvertedType.UINT_16,
    (32, False): ConvertedType.UINT_32,
    (64, False): ConvertedType.UINT_64,
}


def converted_type_for(logical_type: LogicalType | None) -> ConvertedType | None:
    """The ConvertedType a writer must store next to ``logical_type``, if any.

    TIME and TIMESTAMP map by unit regardless of isAdjustedToUTC: the spec says
    writers "*must* annotate local time with legacy annotations too"; NANOS has
    no legacy counterpart.
    """
    if logical_type is None or logical_type.kind is None:
        return None
    kind = logical_type.kind
    if kind in _CONVERTED_FOR_SIMPLE_MEMBER:
        return _CONVERTED_FOR_SIMPLE_MEMBER[kind]
    if (integer := logical_type.INTEGER) is not None:
        return _INTEGER_CONVERTED.get((integer.bitWidth, integer.isSigned))
    if (time := logical_type.TIME) is not None:
        return _by_unit(time.unit, ConvertedType.TIME_MILLIS, ConvertedType.TIME_MICROS)
    if (timestamp := logical_type.TIMESTAMP) is not None:
        return _by_unit(
            timestamp.unit,
            ConvertedType.TIMESTAMP_MILLIS,
            ConvertedType.TIMESTAMP_MICROS,
        )
    return None


def _by_unit(
    unit: TimeUnit | None, millis: ConvertedType, micros: ConvertedType
) -> ConvertedType | None:
    if unit is None or unit.kind is None:
        return None
    return {"MILLIS": millis, "MICROS": micros}.get(unit.kind)
