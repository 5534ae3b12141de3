# A directory given as the trace.
mkdir adir.trace
echo adir.trace
