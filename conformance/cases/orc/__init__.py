"""The ORC cases of the catalogue: their write options, their type vocabulary and one
module per area of the ORC specification."""
