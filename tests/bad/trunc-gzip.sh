# A gzip file cut short (its last 100 bytes and trailer are gone): an error
# at the decompressed offset where the data stops.
"$1" -o full.trace.gz - <<'DESC'
gzip
clock dual
thread 1 main
auto-methods 50 com.example.A
repeat 2000
  enter 1 @r +1 +1
  exit 1 @r +1 +1
end
DESC
n=$(wc -c < full.trace.gz)
head -c $((n - 100)) full.trace.gz > trunc-gzip.trace
echo trunc-gzip.trace
