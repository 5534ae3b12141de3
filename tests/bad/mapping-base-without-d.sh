# --base-mapping without -d: a usage error.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
cp "$(dirname "$0")/../data/mapping/r8-inlines.txt" mapping.txt
echo app.trace
