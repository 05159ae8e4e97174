"""pyarrow's own Arrow types for a case's native columns (conformance.cases.native).

The pyarrow adapters of both formats hand their writer an Arrow table
(arrow_values.table_to_arrow); a column the case names in `native_types` as
``"pyarrow:<NAME>"`` is first cast to the Arrow type NAME stands for, holding the
same canonical values. Arrow's layouts (Arrow Columnar Format, 'Dictionary-encoded
Layout', 'Variable-size Binary View Layout', 'ListView Layout', 'Fixed-Size List
Layout') are not Parquet or ORC types: the writer maps each to the file type of its
values (a dictionary to the value type, with dictionary-encoded pages in Parquet; a
large, view or fixed-size list to a LIST), which every reader must read as the case's
values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pyarrow as pa

from conformance.cases.native import native_engine, native_name

from .base import Unsupported

ENGINE = "pyarrow"


def _fixed_size_list(a: pa.Array) -> pa.Array:
    """A list column as fixed_size_list: every non-null list must have one length."""
    sizes = {len(v) for v in a.to_pylist() if v is not None}
    if len(sizes) != 1:
        raise Unsupported(f"a fixed_size_list needs one list length in every non-null row; "
                          f"the column has lengths {sorted(sizes)}")
    return a.cast(pa.list_(a.type.value_field, sizes.pop()))


def _list_view(a: pa.Array) -> pa.Array:
    """A list column as list_view: each row's offset and size taken from its list offsets."""
    import pyarrow.compute as pc

    starts = a.offsets.slice(0, len(a))
    sizes = pc.subtract(a.offsets.slice(1), starts)
    return pa.ListViewArray.from_arrays(starts, sizes, a.values, type=pa.list_view(a.type.value_field),
                                        mask=a.is_null())


def _sorted_map(a: pa.Array) -> pa.Array:
    """A map column as map<k, v, keys_sorted=True>: the rows' keys must be sorted already,
    or the type's promise is untrue."""
    t = a.type
    for row in a.to_pylist():
        keys = [k for k, _ in row or ()]
        if keys != sorted(keys):
            raise Unsupported(f"map keys {keys} are not sorted; keys_sorted=True would be untrue")
    return a.cast(pa.map_(t.key_field, t.item_field, keys_sorted=True))


# NAME -> the cast from the canonical Arrow array (arrow_values.array_to_arrow).
NATIVE_ARROW: dict[str, Callable[[pa.Array], pa.Array]] = {
    "DICTIONARY": lambda a: a.dictionary_encode(),
    "LARGE_STRING": lambda a: a.cast(pa.large_string()),
    "LARGE_BINARY": lambda a: a.cast(pa.large_binary()),
    "LARGE_LIST": lambda a: a.cast(pa.large_list(a.type.value_field)),
    "STRING_VIEW": lambda a: a.cast(pa.string_view()),
    "BINARY_VIEW": lambda a: a.cast(pa.binary_view()),
    "LIST_VIEW": _list_view,
    "FIXED_SIZE_LIST": _fixed_size_list,
    "MAP_SORTED": _sorted_map,
}


def native_tags(names) -> tuple[str, ...]:
    """The `writes` capabilities of pyarrow's native types `names`."""
    return tuple(f"native:{ENGINE}:{name}" for name in names)


def with_native_columns(table: pa.Table, native_types: Mapping[str, str]) -> pa.Table:
    """`table` with each native column cast to its pyarrow type (`NATIVE_ARROW`)."""
    for column, spec in native_types.items():
        if native_engine(spec) != ENGINE or native_name(spec) not in NATIVE_ARROW:
            raise Unsupported(f"column {column!r}: {spec} is not one of pyarrow's native types "
                              f"{sorted(NATIVE_ARROW)}")
        i = table.schema.get_field_index(column)
        array = NATIVE_ARROW[native_name(spec)](table.column(i).combine_chunks())
        table = table.set_column(i, table.schema.field(i).with_type(array.type), array)
    return table
