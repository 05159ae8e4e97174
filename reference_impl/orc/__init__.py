"""The reference implementation of the Apache ORC format (ORCv1.md, file version 0.12, and
ORCv0.md, file version 0.11), read and write; orc_proto.proto is authoritative for the
messages. One spec concept per module, in folders that follow the specification's chapters."""
