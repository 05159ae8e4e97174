"""The column encodings of ORCv1.md, 'Column Encodings': one module per subsection, each with
its column reader (over one stripe's streams) and its column writer; registry.py ties them
to the type kinds."""
