"""The ORC file's metadata: the protobuf wire codec, the messages of orc_proto.proto and the
file tail (ORCv1.md, 'File Tail')."""
