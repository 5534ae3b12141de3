# A valid trace whose records (one enter/exit pair of thread 1, repeated)
# inflate from about 5 MB to 1.8 GB: no record is wrong, but the stream
# expands over 400x, so it is rejected as a bomb instead of read for seconds.
# Built as 32 concatenated gzip members (legal gzip): the trace's key and
# header, then 2^21 copies of the 28-byte pair per member.
"$1" -o head.trace - <<'DESC'
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
DESC
gzip -c head.trace > gzip-bomb-records.trace
# enter 0x4 and exit 0x4 (0x5) on thread 1, both clocks at 5.
printf '\001\000\004\000\000\000\005\000\000\000\005\000\000\000\001\000\005\000\000\000\005\000\000\000\005\000\000\000' > pairs
i=0
while [ $i -lt 21 ]; do cat pairs pairs > pairs2 && mv pairs2 pairs; i=$((i + 1)); done
gzip -9 -c pairs > pairs.gz
i=0
while [ $i -lt 32 ]; do cat pairs.gz; i=$((i + 1)); done >> gzip-bomb-records.trace
rm -f pairs pairs.gz head.trace
echo gzip-bomb-records.trace
