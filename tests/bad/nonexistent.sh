# A path that does not exist (and has no NAME.key + NAME.data beside it).
echo nonexistent.trace
