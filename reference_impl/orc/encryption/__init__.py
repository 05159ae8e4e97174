"""ORC column encryption: ORCv1.md, 'Column Encryption' and its sections, one module each.

stream_encryption.py ('Stream Encryption': AES/CTR and the IV), encryption_keys.py
('Encryption Keys' and the local keys of 'Column Encryption'), data_masks.py ('Data
Masks'), encryption_variants.py ('Encryption Variants': what a writer adds and what a
reader with keys replaces).
"""
