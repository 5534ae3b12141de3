# One stray 0x1f byte after a complete, checked gzip member: not the start
# of another member (that takes 1f 8b), so it is ignored rather than called
# a truncated file.
"$1" -o plain.trace.gz - <<'DESC'
gzip
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
call 1 0x4 10 20
DESC
{ cat plain.trace.gz; printf '\037'; } > gzip-trailing-1f.trace
echo gzip-trailing-1f.trace
