# --mapping names a file that does not exist.
"$1" -o app.trace "$(dirname "$0")/../data/mapping/app.desc"
:
echo app.trace
