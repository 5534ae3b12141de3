# A valid key and header followed by 2 GiB of zero bytes, gzip-compressed to
# about 2 MB (32 concatenated members of 64 MiB of zeros each): rejected by
# the decompression-bomb check within milliseconds.
"$1" -o head.trace - <<'DESC'
clock dual
thread 1 main
method 0x4 com.example.A one ()V A.java
DESC
gzip -c head.trace > gzip-bomb.trace
head -c 67108864 /dev/zero | gzip -9 > zeros.gz
i=0
while [ $i -lt 32 ]; do cat zeros.gz; i=$((i + 1)); done >> gzip-bomb.trace
rm -f zeros.gz head.trace
echo gzip-bomb.trace
