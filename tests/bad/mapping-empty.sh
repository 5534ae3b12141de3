# An empty mapping file.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
: > mapping.txt
echo app.trace
