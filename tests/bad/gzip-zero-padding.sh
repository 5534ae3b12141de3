# A gzip file padded with zeros after its last member (tape and block
# padding, which gzip -d accepts): read in full, no message.
"$1" -o plain.trace.gz - <<'DESC'
gzip
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
call 1 0x4 10 20
DESC
{ cat plain.trace.gz; head -c 1000 /dev/zero; } > gzip-zero-padding.trace
echo gzip-zero-padding.trace
