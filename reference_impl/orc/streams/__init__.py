"""ORC streams: their compression chunks and their place in a stripe.

ORCv1.md, 'Compression' and 'Stripes'.
"""
