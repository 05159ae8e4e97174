"""The schema and its logical types (LogicalTypes.md; README.md, 'Metadata').

=================  ===========================================================
flat               ColumnSpec: flat schemas and their SchemaElement form
type_rules         which physical types each annotation may annotate; the
                   ConvertedType each LogicalType implies
tree               the schema as a tree: leaves, paths, max definition/repetition levels
nested_types       LIST and MAP (and their legacy shapes) <-> Python lists and pairs
logical_values     how logical values are stored in physical values
variant_encoding   the Variant binary encoding: metadata, values (VariantEncoding.md)
variant_shredding  shredded VARIANT: typed_value <-> value (VariantShredding.md)
=================  ===========================================================
"""
