"""The masked view of an encrypted case: the rows a reader without the keys reads.

ORCv1.md, 'Column Encryption': "If they do not have the keys, they will get the masked
data"; 'Encryption Variants': each encrypted column is written as an encrypted unmasked
variant and an "unencrypted masked" one, "so that old ORC readers will read the masked
unencrypted data"; 'Data Masks': the data "is statically masked before writing the
unencrypted variant" and masks "are not allowed to change the type of the column".

So a case's masked view is its canonical rows with each encrypted column replaced by its
mask's output (the case names the mask; nullify, the text's default, otherwise), computed
by the reference's masks (reference_impl/orc/encryption/data_masks.py) from the case
definition: it is what the harness judges a reader that reads encrypted files without
keys against (conformance.engines.base.Capabilities.reads_keyless), never an engine's
output.
"""

from __future__ import annotations

from conformance.values import Table
from reference_impl.orc.encryption.data_masks import mask_values

from .options import OrcWriteOptions


def masked_view(expected: Table, options: OrcWriteOptions) -> Table:
    """`expected` (a case's canonical rows) with each column `options` encrypts masked."""
    columns = [mask_values(options.mask_of(name), expected.column(name)) if name in options.encrypt
               else expected.column(name) for name in expected.schema.names]
    return Table.from_columns(expected.schema, columns)
