# A gzip-compressed mapping given as the mapping itself.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
gzip -c -n "$(dirname "$0")/../data/mapping/r8-inlines.txt" > mapping.txt
echo app.trace
