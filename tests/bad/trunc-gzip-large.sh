# A gzip file of about 5 MB of records (several of the inflating thread's
# 1 MB buffers, tests/data/gzbig.desc) cut at 60 %: the error comes
# after every byte before it, at the decompressed offset where the data
# stops (python3's zlib gives the same count for the cut file).
{ echo gzip; cat "$(dirname "$0")/../data/gzbig.desc"; } | "$1" -o full.trace.gz - || exit 1
n=$(wc -c < full.trace.gz)
head -c $((n * 6 / 10)) full.trace.gz > trunc-gzip-large.trace
rm -f full.trace.gz
echo trunc-gzip-large.trace
