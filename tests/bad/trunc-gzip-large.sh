# A gzip file of about 5 MB of records (several of the inflating thread's
# 1 MB buffers) cut at 60 %: the error comes after every byte before it, at
# the decompressed offset where the data stops (python3's zlib gives the
# same count for the cut file).
"$1" -o full.trace.gz - <<'DESC'
gzip
clock dual
thread 1 main
thread 2 RenderThread
auto-methods 3000 com.example.A
repeat 60000
  enter 1 @r +3 +2
  enter 2 @r +1
  exit 2 @r +7 +1
  enter 1 @r +2 +5
  exit 1 @r +1 +3
  exit 1 @r +4 +1
end
DESC
n=$(wc -c < full.trace.gz)
head -c $((n * 6 / 10)) full.trace.gz > trunc-gzip-large.trace
rm -f full.trace.gz
echo trunc-gzip-large.trace
